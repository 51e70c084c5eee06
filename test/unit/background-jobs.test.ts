import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BACKGROUND,
  backgroundPart,
  LOCAL_TIME_FACTOR,
  localPeriodMs,
  type ScheduledPart,
  scheduledParts,
} from '../../shared/contracts/background';
import { FUNCTION_MEMORY_MB } from '../../shared/contracts/function-limits';
import { RESYNC_LEASE_MS } from '../../shared/services/imports';
import { FINISHER_LEASE_MS } from '../../shared/services/series';
import { invokeUnderTimeout, jobContext, startJobs } from '../../local/jobs';

/**
 * The background parts declared once (shared/contracts/background.ts, issue 41): what infra builds and
 * the local job runner (local/jobs.ts) runs, and how the runner applies a part's time to its handler, as
 * the local gateway does for the API's (a stand-in handler, Vitest's clock).
 */
const ROOT = resolve(import.meta.dirname, '../..');

afterEach(() => vi.useRealTimers());

describe('the background list', () => {
  it('names each part once, with a handler module that exists and a time Lambda allows', () => {
    expect(new Set(BACKGROUND.map((p) => p.name)).size).toBe(BACKGROUND.length);
    for (const part of BACKGROUND) {
      expect(existsSync(resolve(ROOT, `${part.handler}.ts`)), part.handler).toBe(true);
      expect(part.timeoutSeconds).toBeGreaterThan(0);
      expect(part.timeoutSeconds).toBeLessThanOrEqual(900);
      expect(part.memoryMb).toBe(FUNCTION_MEMORY_MB);
    }
    expect(() => backgroundPart('nothing')).toThrow(/No background part/);
  });

  it('has five scheduled jobs, the stream dispatcher and the queue deliverer', () => {
    expect(scheduledParts().map((p) => [p.name, p.trigger.rateMinutes])).toEqual([
      ['extendSeries', 24 * 60],
      ['resyncImports', 1],
      ['finishSeriesWrites', 1],
      ['publishScheduled', 1],
      ['sendMail', 1],
    ]);
    expect(backgroundPart('webhookDispatch').trigger).toEqual({ kind: 'stream', batchSize: 10 });
    expect(backgroundPart('webhookDeliver').trigger).toEqual({ kind: 'queue', batchSize: 10 });
  });

  it('gives the jobs that claim work as long a time as their claims hold', () => {
    expect(backgroundPart('resyncImports').timeoutSeconds * 1000).toBe(RESYNC_LEASE_MS);
    expect(backgroundPart('finishSeriesWrites').timeoutSeconds * 1000).toBe(FINISHER_LEASE_MS);
  });

  it('runs a schedule locally LOCAL_TIME_FACTOR times as often: the finisher every second at least', () => {
    expect(LOCAL_TIME_FACTOR).toBe(60);
    const period = (name: string) => localPeriodMs(backgroundPart(name) as ScheduledPart);
    expect(period('finishSeriesWrites')).toBeLessThanOrEqual(1000);
    expect(period('publishScheduled')).toBe(1000);
    expect(period('resyncImports')).toBe(1000);
    expect(period('extendSeries')).toBe(24 * 60 * 1000);
    expect(localPeriodMs(backgroundPart('extendSeries') as ScheduledPart, 1)).toBe(24 * 60 * 60 * 1000);
  });
});

describe('the local job runner', () => {
  const part = backgroundPart('publishScheduled') as ScheduledPart;

  it("gives the handler a context whose remaining time counts down from the part's time", () => {
    vi.useFakeTimers();
    const context = jobContext(part, 60_000);
    expect(context.getRemainingTimeInMillis()).toBe(60_000);
    vi.advanceTimersByTime(45_000);
    expect(context.getRemainingTimeInMillis()).toBe(15_000);
    vi.advanceTimersByTime(20_000);
    expect(context.getRemainingTimeInMillis()).toBe(0);
    expect(context.functionName).toBe('publishScheduled');
  });

  it('answers a run that outlives its time as timed out, and drops its late result', async () => {
    vi.useFakeTimers();
    let seen: number | undefined;
    const handler = vi.fn(
      (_event: unknown, context: Context) =>
        new Promise((ok) => {
          seen = context.getRemainingTimeInMillis();
          setTimeout(() => ok({ published: 1 }), 90_000);
        }),
    );
    const outcome = invokeUnderTimeout(part, handler, 60_000);
    await vi.advanceTimersByTimeAsync(60_000);
    await expect(outcome).resolves.toMatchObject({ part: 'publishScheduled', status: 'timed out' });
    expect(seen).toBe(60_000);
    await vi.advanceTimersByTimeAsync(30_000);
    await expect(invokeUnderTimeout(part, async () => ({ published: 2 }), 60_000)).resolves.toMatchObject({
      status: 'ok',
      result: { published: 2 },
    });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('logs a timed-out run, starts the next on its period, and stops without waiting for the one cut off', async () => {
    vi.useFakeTimers();
    const handler = vi.fn(() => new Promise<never>(() => {}));
    const lines: string[] = [];
    const runner = startJobs({
      parts: [part],
      load: async () => handler,
      timeoutMs: () => 1500,
      log: (l) => lines.push(l),
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(handler).toHaveBeenCalledTimes(1); // at the start (localAtStart)
    await vi.advanceTimersByTimeAsync(1000);
    expect(handler).toHaveBeenCalledTimes(1); // the first is still within its time
    await vi.advanceTimersByTimeAsync(500);
    expect(lines).toEqual([
      'Job publishScheduled timed out: still running after its 1.5 s (its deployed time); next run in 1 s.',
    ]);
    await vi.advanceTimersByTimeAsync(500);
    expect(handler).toHaveBeenCalledTimes(2);
    let stopped = false;
    const stopping = runner.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(1500);
    await stopping;
    expect(stopped).toBe(true);
    expect(lines).toHaveLength(2);
  });
});
