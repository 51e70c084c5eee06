import { sendDueMail } from '../shared/services/tickets/mail-sender';
import { repeatJob } from './repeating-job';

/**
 * Attendees' e-mails in the local stack (docs/tickets.md): every few seconds the outbox's due mails
 * are written to `.data/outbox/*.eml` (listed at /dev/outbox); deployed, the sendMail job sends them
 * through SES every minute (functions/jobs/send-mail.ts).
 */
const EVERY_MS = 2 * 1000;

export function startMailTimer(o: { log?: (line: string) => void; everyMs?: number } = {}): {
  stop: () => Promise<void>;
} {
  const { log = console.log, everyMs = EVERY_MS } = o;
  const send = () =>
    sendDueMail({ log })
      .then((r) => {
        if (r.sent) log(`Mail: ${r.sent} written to the outbox.`);
      })
      .catch((e: Error) => log(`Mail could not be sent (${e.message}); next try soon.`));
  return repeatJob(send, { everyMs, atStart: true });
}
