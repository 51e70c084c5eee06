import { renderMail } from '../../domain/mail-message';
import { claimMail, dueMail, type MailRecord, settleMail } from '../../repositories/ticket-mail';
import * as repo from '../../repositories/tickets';
import { attendeeMail, mailName } from './confirmation';
import { configuredTransport, type MailTransport } from './mail-transport';

/**
 * The mail sender (docs/tickets.md): sends the outbox's due mails, each claimed first so that two
 * senders never send one attempt twice. A failed send stays in the outbox and is tried again on the
 * schedule below; the registration it tells of was committed before and is never touched. Run by the
 * local stack every second (local/jobs.ts) and, deployed, by the sendMail job every minute.
 */

/** Seconds before each attempt after the first: 1 min, 5 min, 30 min, 2 h, 6 h; then the mail has failed. */
export const MAIL_RETRY_SCHEDULE = [60, 300, 1800, 7200, 21600] as const;

export interface MailRun {
  due: number;
  sent: number;
  retrying: number;
  failed: number;
}

export async function sendDueMail(
  o: { now?: number; transport?: MailTransport; limit?: number; log?: (line: string) => void } = {},
): Promise<MailRun> {
  const now = o.now ?? Date.now();
  const transport = o.transport ?? configuredTransport();
  const due = await dueMail(now, o.limit ?? 50);
  const run: MailRun = { due: due.length, sent: 0, retrying: 0, failed: 0 };
  for (const m of due) {
    const retryIn = MAIL_RETRY_SCHEDULE[m.attempts];
    // The claim's due time is the next try's: a sender that dies mid-attempt leaves the mail to it.
    const claimed = await claimMail(m, now, now + (retryIn ?? 3600) * 1000);
    if (!claimed) continue;
    const outcome = await sendOne(claimed, transport, now);
    if (outcome.status === 'sent') run.sent++;
    else {
      const last = retryIn === undefined || outcome.status === 'failed';
      o.log?.(
        `Mail ${mailName(m.attendee_id, m.kind)}: ${outcome.error}${last ? '' : '; tried again later'}`,
      );
      await settleMail(claimed, last ? { status: 'failed', error: outcome.error } : outcome, now);
      if (last) run.failed++;
      else run.retrying++;
      continue;
    }
    await settleMail(claimed, outcome, now);
  }
  return run;
}

async function sendOne(
  m: MailRecord,
  transport: MailTransport,
  now: number,
): Promise<{ status: 'sent'; messageId: string } | { status: 'pending' | 'failed'; error: string }> {
  const attendee = await repo.getAttendee(m.attendee_id);
  const ticket = attendee && (await repo.getTicket(attendee.ticket_id));
  // Gone with its event (a permanent delete): nobody to tell of anything.
  if (!attendee || !ticket) return { status: 'failed', error: 'the attendee or its ticket is gone' };
  try {
    const message = await attendeeMail(m.kind, attendee, ticket, new Date(now), m.link_token);
    const messageId = await transport.send(renderMail(message), {
      to: attendee.email,
      name: mailName(m.attendee_id, m.kind),
    });
    return { status: 'sent', messageId };
  } catch (e) {
    return { status: 'pending', error: (e as Error).message || String(e) };
  }
}
