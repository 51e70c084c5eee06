import { type FinisherRun, finishDueSeriesWrites } from '../shared/services/series';
import { repeatJob } from './repeating-job';

/**
 * The finisher of series writes in the local stack (docs/recurrence.md): every second, the
 * journals series writes left when they answered are finished (deployed, the finishSeriesWrites job
 * does the same every minute: functions/jobs/finish-series-writes.ts). A run is short, so stopping the
 * stack waits little for it.
 */
const EVERY_MS = 1_000;
const BUDGET_MS = 20_000;

export function startSeriesFinisher(
  o: { log?: (line: string) => void; everyMs?: number; job?: () => Promise<FinisherRun> } = {},
): { stop: () => Promise<void> } {
  const {
    log = console.log,
    everyMs = EVERY_MS,
    job = () => finishDueSeriesWrites(Date.now(), { budgetMs: BUDGET_MS, log: (l) => log(`Recurring ${l}`) }),
  } = o;
  const finish = () =>
    job()
      .then((r) => {
        if (r.finished) log(`Recurring series: ${r.finished} series writes finished.`);
      })
      .catch((e: Error) =>
        log(`Series writes could not be finished (${e.message}); next try in a few seconds.`),
      );
  return repeatJob(finish, { everyMs });
}
