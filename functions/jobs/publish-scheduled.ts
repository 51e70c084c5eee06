import { powertoolsLogger } from '../../shared/http/powertools-logger';
import { SERVICE_NAME } from '../../shared/config';
import { type PublishRun, publishDue } from '../../shared/services/maintenance';

/**
 * Scheduled publication, deployed (decisions §9, docs/api-guide.md): invoked every minute by an
 * EventBridge Scheduler schedule (infra/jobs.ts), it publishes the `future` events, venues and
 * organizers whose date has come, through the API's write path (so the change feed and webhooks report
 * them then), as the local stack's timer does. Not an API operation. A post that could not be published
 * keeps its mark and the next run tries again; the run then throws, so the invocation counts as an
 * error (the alarm on the function's Errors). Not retried by Lambda: the next minute's run is the retry.
 */
const log = powertoolsLogger(SERVICE_NAME, { job: 'publishScheduled' });

export async function handler(): Promise<PublishRun> {
  const run = await publishDue(new Date(), (line) => log.error(line));
  if (run.due > 0) log.info('Scheduled posts published', { ...run });
  if (run.failed > 0)
    throw new Error(`${run.failed} scheduled posts could not be published; the next run tries again`);
  return run;
}
