import { dueJournals, moveJournalDue } from '../../repositories/series';
import { finishJournal } from './journal';

/**
 * The finisher of series writes (docs/recurrence.md): a write answers after about three seconds, and
 * what its journal still holds (a long series, a slow table, a failure half-way) is finished here, in
 * a minute deployed (the finishSeriesWrites job) and a few seconds locally, rather than at the next
 * daily extend run. A series write marks its journal due a little after the request ends
 * (JOURNAL_DUE_AFTER_MS); a finisher claims a due journal by moving its due time on, so two finishers
 * never write one series at once, and a claim a stopped finisher left lapses by itself.
 */

/** How long one run goes on finishing journals; the deployed job's timeout is its claim's length. */
export const FINISHER_BUDGET_MS = 4 * 60_000;
/** How long a claim holds: the run's budget and a margin, the deployed function's timeout. */
export const FINISHER_LEASE_MS = 5 * 60_000;

export interface FinisherRun {
  /** Journals due, finished, left for the next run (the budget ran out) and failed (logged, retried). */
  due: number;
  finished: number;
  left: number;
  failed: number;
}

export async function finishDueSeriesWrites(
  now = Date.now(),
  o: { budgetMs?: number; log?: (line: string) => void } = {},
): Promise<FinisherRun> {
  const { budgetMs = FINISHER_BUDGET_MS, log = () => {} } = o;
  const started = Date.now();
  const due = await dueJournals(now);
  const run: FinisherRun = { due: due.length, finished: 0, left: 0, failed: 0 };
  for (const j of due) {
    const remaining = budgetMs - (Date.now() - started);
    if (remaining <= 0) {
      run.left++;
      continue;
    }
    const claim = await moveJournalDue(j.id, j.due, now + FINISHER_LEASE_MS);
    if (!claim) continue;
    try {
      if (await finishJournal(j.id, remaining)) run.finished++;
      else {
        run.left++;
        // Due again at once: the next run goes on where this one stopped.
        await moveJournalDue(j.id, claim, now);
      }
    } catch (e) {
      // The claim lapses and a later run tries again; the others go on.
      run.failed++;
      log(`series ${j.id}: ${(e as Error).message}`);
    }
  }
  return run;
}
