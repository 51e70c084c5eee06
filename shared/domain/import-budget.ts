/**
 * How much of a function's time an import run may take, and how long a re-sync that keeps running out
 * of time waits before its next try (issue 38). Pure rules: the services apply them.
 */

/**
 * Kept from the function's remaining time for what follows the last record: saving the import's record
 * and answering (and one record's write that started just before the deadline). A fifth of the time,
 * at least 2 s.
 */
export const reserveMs = (remainingMs: number) => Math.max(2000, remainingMs / 5);

/** The epoch ms a run must stop writing at, given the function's remaining time; none without one. */
export function runDeadline(remainingMs: number | undefined, now = Date.now()): number | undefined {
  if (remainingMs === undefined) return undefined;
  return now + remainingMs - reserveMs(remainingMs);
}

/** How long a fetch may take before `deadline`: at most `capMs`, at least 1 ms (then it times out). */
export const fetchTimeoutMs = (capMs: number, deadline: number | undefined, now = Date.now()) =>
  deadline === undefined ? capMs : Math.max(1, Math.min(capMs, deadline - now));

/** The first back-off of a re-sync the job stopped at its time limit; it doubles with each one in a row. */
export const BACKOFF_FIRST_MS = 15 * 60_000;
/** The longest back-off: a feed that never finishes is tried once a day. */
export const BACKOFF_MAX_MS = 24 * 60 * 60_000;

/** The wait before the next try after the `timeouts`-th run in a row that ran out of time (1, 2, ...). */
export function backoffMs(timeouts: number): number {
  if (timeouts < 1) return 0;
  return Math.min(BACKOFF_FIRST_MS * 2 ** (timeouts - 1), BACKOFF_MAX_MS);
}

/**
 * What a re-sync the job stopped at its time limit leaves on its import: the report so far with the
 * timeout as its `error` (GET /imports/{id} shows it), one more timeout in a row, and when it is tried
 * again (backed off, so that a feed that cannot finish is not claimed again every run forever).
 */
export function timedOutRun<R extends object>(
  report: R,
  progress: { done: number; total: number | null },
  timeoutsBefore: number,
  now: number,
): { last_run: R & { error: string }; timeouts: number; next_run_ms: number } {
  const timeouts = timeoutsBefore + 1;
  const next_run_ms = now + backoffMs(timeouts);
  const got =
    progress.total === null ? 'before the feed came' : `after ${progress.done} of ${progress.total}`;
  const error =
    `timed_out: the run stopped at its time limit ${got} (${timeouts} in a row); ` +
    `it goes on from there at ${new Date(next_run_ms).toISOString()}.`;
  return { last_run: { ...report, error }, timeouts, next_run_ms };
}
