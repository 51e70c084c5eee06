import { powertoolsLogger } from '../../shared/http/powertools-logger';
import { SERVICE_NAME } from '../../shared/config';
import { type FinisherRun, finishDueSeriesWrites } from '../../shared/services/series';

/**
 * The finisher of series writes, deployed (docs/recurrence.md): invoked every minute by an EventBridge
 * Scheduler schedule (infra/jobs.ts), it finishes the journals that series writes left when they
 * answered, as the local stack's timer does every few seconds. Not an API operation. A journal that
 * could not be finished is logged and tried again by a later run; the run then throws, so the
 * invocation counts as an error (the alarm on the function's Errors).
 */
const log = powertoolsLogger(SERVICE_NAME, { job: 'finishSeriesWrites' });

export async function handler(): Promise<FinisherRun> {
  const run = await finishDueSeriesWrites(Date.now(), { log: (line) => log.error(line) });
  if (run.due > 0) log.info('Series writes finished', { ...run });
  if (run.failed > 0)
    throw new Error(`${run.failed} series writes could not be finished; a later run tries again`);
  return run;
}
