import { describe, expect, it } from 'vitest';
import { backoffMs, fetchTimeoutMs, runDeadline, timedOutRun } from '../../shared/domain/import-budget';

/** How long an import run may take, and the back-off of re-syncs that run out of time (issue 38). */

const MIN = 60_000;

describe('import time budget', () => {
  it('stops a run a fifth of its function’s remaining time before the end, at least 2 s', () => {
    expect(runDeadline(undefined, 1000)).toBeUndefined();
    expect(runDeadline(29_000, 0)).toBe(29_000 - 5_800);
    expect(runDeadline(5_000, 0)).toBe(3_000);
    expect(runDeadline(15 * MIN, 0)).toBe(12 * MIN);
  });

  it('gives a fetch no more than the run has left, and no more than the feed’s own limit', () => {
    expect(fetchTimeoutMs(30_000, undefined, 0)).toBe(30_000);
    expect(fetchTimeoutMs(30_000, 23_200, 0)).toBe(23_200);
    expect(fetchTimeoutMs(30_000, 12 * MIN, 0)).toBe(30_000);
    expect(fetchTimeoutMs(30_000, 100, 500)).toBe(1);
  });

  it('backs a re-sync that keeps running out of time off: 15 min, doubling, at most a day', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 20].map((n) => backoffMs(n) / MIN)).toEqual([
      0, 15, 30, 60, 120, 240, 480, 960, 1440,
    ]);
  });

  it('records a timed-out run in the report: how far it got, how many in a row, when it goes on', () => {
    const report = { started_utc: '2027-01-01T00:00:00.000Z', created: 120, skipped: [] };
    const now = Date.parse('2027-01-01T00:15:00.000Z');
    const first = timedOutRun(report, { done: 120, total: 5000 }, 0, now);
    expect(first).toEqual({
      timeouts: 1,
      next_run_ms: now + 15 * MIN,
      last_run: {
        ...report,
        error:
          'timed_out: the run stopped at its time limit after 120 of 5000 (1 in a row); it goes on from there at 2027-01-01T00:30:00.000Z.',
      },
    });
    const third = timedOutRun(first.last_run, { done: 0, total: null }, 2, now);
    expect(third.next_run_ms).toBe(now + 60 * MIN);
    expect(third.last_run.error).toMatch(/^timed_out: .* before the feed came \(3 in a row\)/);
    expect(third.last_run.created).toBe(120);
  });
});
