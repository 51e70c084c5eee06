import { powertoolsLogger } from '../../shared/http/powertools-logger';
import { SERVICE_NAME } from '../../shared/config';
import { type ExtendProgress, extendAllSeries } from '../../shared/services/series';

/**
 * The daily extend job of recurring events, deployed (docs/recurrence.md, docs/operations.md): invoked
 * by an EventBridge Scheduler schedule (infra/jobs.ts), it runs the job `npm run series:extend` runs by
 * hand. Not an API operation. A failure throws, so the invocation counts as an error (the alarm on the
 * function's Errors); the job is safe to repeat, so Lambda's own retries of it are too.
 */
const log = powertoolsLogger(SERVICE_NAME, { job: 'extendSeries' });

export async function handler(): Promise<ExtendProgress> {
  const result = await extendAllSeries(new Date());
  log.info('Recurring series extended', { ...result });
  // A series at its 1,000 occurrences stays where it is: worth a look, not a failed run.
  if (result.failed > 0) log.warn(`${result.failed} series could not be extended: at their most occurrences`);
  return result;
}
