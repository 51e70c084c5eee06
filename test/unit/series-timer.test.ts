import { afterEach, describe, expect, it, vi } from 'vitest';
import { backgroundPart, type ScheduledPart } from '../../shared/contracts/background';
import type { FinisherRun } from '../../shared/services/series';
import type { ExtendProgress } from '../../shared/services/series';
import { startJobs } from '../../local/jobs';

/**
 * The local stack's extend job (issue 27) and finisher of series writes, as the local job runner runs
 * them (local/jobs.ts, from shared/contracts/background.ts): the extend job when the stack starts, one
 * each local period, one at a time, and none after it stops; the finisher on each period, not at the
 * start. The handlers are stand-ins, the periods a factor given, and the clock is Vitest's.
 */
const HOUR = 60 * 60 * 1000;
const extend = backgroundPart('extendSeries') as ScheduledPart;
const finisher = backgroundPart('finishSeriesWrites') as ScheduledPart;
/** The factor that makes the extend job's day an hour. */
const HOURLY = 24;
const progress = (o: Partial<ExtendProgress> = {}): ExtendProgress => ({
  series: 0,
  finished: 0,
  extended: 0,
  added: 0,
  failed: 0,
  ...o,
});

afterEach(() => vi.useRealTimers());

describe('the local extend job', () => {
  const run = (job: () => Promise<ExtendProgress>, factor: number, log: (l: string) => void = () => {}) =>
    startJobs({ parts: [extend], load: async () => job, factor, log });

  it('runs the job when it starts and again on each interval, until it stops', async () => {
    vi.useFakeTimers();
    const job = vi.fn(async () => progress());
    const timer = run(job, HOURLY);
    await vi.advanceTimersByTimeAsync(0);
    expect(job).toHaveBeenCalledTimes(1);

    await vi.advanceTimersByTimeAsync(HOUR - 1);
    expect(job).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(job).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(2 * HOUR);
    expect(job).toHaveBeenCalledTimes(4);

    await timer.stop();
    await vi.advanceTimersByTimeAsync(5 * HOUR);
    expect(job).toHaveBeenCalledTimes(4);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('starts no run while one is under way, and its stop waits for that run to end', async () => {
    vi.useFakeTimers();
    let finish = () => {};
    const job = vi.fn(
      () =>
        new Promise<ExtendProgress>((resolve) => {
          finish = () => resolve(progress({ series: 3, added: 5 }));
        }),
    );
    const lines: string[] = [];
    // A second's period: runs every second, were the first not still under way.
    const timer = run(job, 24 * 60 * 60, (l) => lines.push(l));
    await vi.advanceTimersByTimeAsync(3000);
    expect(job).toHaveBeenCalledTimes(1);

    let stopped = false;
    const stopping = timer.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(lines).toEqual(['Recurring series: 0 interrupted writes finished, 5 occurrences added.']);
    await vi.advanceTimersByTimeAsync(5000);
    expect(job).toHaveBeenCalledTimes(1);
  });

  it('logs a failed run and runs again on the next interval', async () => {
    vi.useFakeTimers();
    const job = vi
      .fn<() => Promise<ExtendProgress>>()
      .mockRejectedValueOnce(new Error('table not found'))
      .mockResolvedValue(progress({ finished: 1 }));
    const lines: string[] = [];
    const timer = run(job, 24 * 60 * 60, (l) => lines.push(l));
    await vi.advanceTimersByTimeAsync(1000);
    await timer.stop();
    expect(job).toHaveBeenCalledTimes(2);
    expect(lines).toEqual([
      'Job extendSeries failed (table not found); next run in 1 s.',
      'Recurring series: 1 interrupted writes finished, 0 occurrences added.',
    ]);
  });
});

describe('the local finisher of series writes', () => {
  const run = (o: Partial<FinisherRun> = {}): FinisherRun => ({
    due: 0,
    finished: 0,
    left: 0,
    failed: 0,
    ...o,
  });

  it('runs on each interval, not at the start (the extend run then finishes what a killed stack left)', async () => {
    vi.useFakeTimers();
    const job = vi
      .fn<() => Promise<FinisherRun>>()
      .mockResolvedValueOnce(run({ due: 2, finished: 2 }))
      .mockRejectedValueOnce(new Error('table not found'))
      .mockResolvedValue(run());
    const lines: string[] = [];
    // Every 5 s: a minute's schedule sped up 12 times.
    const timer = startJobs({
      parts: [finisher],
      load: async () => job,
      factor: 12,
      log: (l) => lines.push(l),
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(job).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(15_000);
    await timer.stop();
    expect(job).toHaveBeenCalledTimes(3);
    // An idle run says nothing.
    expect(lines).toEqual([
      'Recurring series: 2 series writes finished.',
      'Job finishSeriesWrites failed (table not found); next run in 5 s.',
    ]);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(job).toHaveBeenCalledTimes(3);
  });
});
