import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSeriesFinisher } from '../../local/series-finisher';
import { startSeriesTimer } from '../../local/series-timer';
import type { FinisherRun } from '../../shared/services/series';
import type { ExtendProgress } from '../../shared/services/series';

/**
 * The local stack's extend timer (issue 27, local/series-timer.ts): a run when it starts, one each
 * interval, one at a time, and none after it stops; and its finisher of series writes
 * (local/series-finisher.ts). The intervals and the jobs are injected, and the clock is Vitest's: no
 * hour is waited for.
 */
const HOUR = 60 * 60 * 1000;
const progress = (o: Partial<ExtendProgress> = {}): ExtendProgress => ({
  series: 0,
  finished: 0,
  extended: 0,
  added: 0,
  failed: 0,
  ...o,
});

afterEach(() => vi.useRealTimers());

describe('the local extend timer', () => {
  it('runs the job when it starts and again on each interval, until it stops', async () => {
    vi.useFakeTimers();
    const job = vi.fn(async () => progress());
    const timer = startSeriesTimer({ job, everyMs: HOUR, log: () => {} });
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
    const timer = startSeriesTimer({ job, everyMs: 1000, log: (l) => lines.push(l) });
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
    const timer = startSeriesTimer({ job, everyMs: 1000, log: (l) => lines.push(l) });
    await vi.advanceTimersByTimeAsync(1000);
    await timer.stop();
    expect(job).toHaveBeenCalledTimes(2);
    expect(lines).toEqual([
      'Recurring series could not be extended (table not found); next try in an hour.',
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
    const timer = startSeriesFinisher({ job, everyMs: 5000, log: (l) => lines.push(l) });
    expect(job).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(15_000);
    await timer.stop();
    expect(job).toHaveBeenCalledTimes(3);
    // An idle run says nothing.
    expect(lines).toEqual([
      'Recurring series: 2 series writes finished.',
      'Series writes could not be finished (table not found); next try in a few seconds.',
    ]);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(job).toHaveBeenCalledTimes(3);
  });
});
