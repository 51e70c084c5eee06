import { SERVICE_NAME } from '../../shared/config';
import { powertoolsLogger } from '../../shared/http/powertools-logger';
import { type MailRun, sendDueMail } from '../../shared/services/tickets';

/**
 * Attendees' e-mails, deployed (docs/tickets.md): invoked every minute by an EventBridge Scheduler
 * schedule (infra/jobs.ts), it sends the outbox's due mails through Amazon SES as the local stack's
 * timer writes them to files. A mail that could not be sent stays in the outbox for its retry; the
 * registration it tells of is never touched. Not retried by Lambda: the next minute's run is the retry.
 */
const log = powertoolsLogger(SERVICE_NAME, { job: 'sendMail' });

export async function handler(): Promise<MailRun> {
  const run = await sendDueMail({ log: (line) => log.warn(line) });
  if (run.due > 0) log.info('Attendee mail sent', { ...run });
  return run;
}
