import { decodeHTML } from 'entities';
import { config, NAMESPACE_PATH, TICKETS_NAMESPACE } from '../../config';
import { type MailAttachment, type MailMessage, mailbox } from '../../domain/mail-message';
import type { AttendeeRecord, TicketRecord } from '../../domain/tickets';
import type { MailKind } from '../../repositories/ticket-mail';
import type { Caller } from '../common';
import { eventCalendar, locationText } from '../feeds/ical';
import { getEvent } from '../events';
import { attendeePath } from '../../domain/page-paths';
import { checkInAddress, checkInQrPng } from './check-in-code';

/**
 * An attendee's e-mail (docs/tickets.md, "Confirmation e-mail"): the event, the ticket, the security
 * code to show at the door and the event as an `.ics` attachment, written by the service's iCal
 * writer (GET /events/{id}/ical). For those going, a QR code (`qr.png`) of the check-in address, as the
 * reference's tickets carry: `POST /qr` with the attendee's ID and security code.
 */

const SITE_READER: Caller['user'] = { sub: 'mail', role: 'editor' };

const STATUS_LINE: Record<AttendeeRecord['status'], string> = {
  going: 'You are registered: a seat is yours.',
  'not going': 'Your answer is recorded: not going.',
  waitlist: 'The event is full: you are on the waitlist, and will be told if a seat becomes yours.',
  cancelled: 'Your registration is cancelled.',
};

const plain = (html: unknown) =>
  decodeHTML(String(html ?? ''))
    .replace(/<[^>]*>/g, '')
    .trim();

/** The tickets namespace's root, as the site's visitors reach it. */
export const ticketsRoot = () => `${config.apiBaseUrl ?? config.siteUrl}/${TICKETS_NAMESPACE}`;

/** The outbox item's file and Message-ID name: one per attendee and kind. */
export const mailName = (attendeeId: number, kind: MailKind) => `attendee-${attendeeId}-${kind}`;

/**
 * An attendee's mail. `linkToken`, the attendee's secret (kept in the mail's item until it is sent),
 * gives the link to their own page (view, cancel, add to calendar); a mail without it (a promotion:
 * the token was shown once, to the registration) points at the first mail's link instead.
 */
export async function attendeeMail(
  kind: MailKind,
  attendee: AttendeeRecord,
  ticket: TicketRecord,
  now: Date,
  linkToken?: string,
): Promise<MailMessage> {
  const ctx: Caller = { user: SITE_READER, root: `${config.apiBaseUrl ?? config.siteUrl}${NAMESPACE_PATH}` };
  const [event, ics] = await Promise.all([
    getEvent({ id: attendee.post_id }, ctx),
    eventCalendar(attendee.post_id, { ...ctx, now }),
  ]);
  const title = plain(event.title);
  const going = attendee.status === 'going';
  const where = locationText(event.venue);
  const lines = [
    `Hello ${attendee.full_name},`,
    '',
    kind === 'promoted'
      ? 'A seat became free and is now yours: you are going.'
      : STATUS_LINE[attendee.status],
    '',
    `Event: ${title}`,
    `When: ${event.start_date} to ${event.end_date} (${event.timezone ?? config.siteTimezone})`,
    ...(where ? [`Where: ${where}`] : []),
    `Ticket: ${plain(ticket.title)} (ticket ${ticket.id})`,
    `Attendee: ${attendee.id}`,
    ...(going
      ? ['', `Security code: ${attendee.security_code}`, 'Show it at the door to be checked in.']
      : []),
    '',
    `The event: ${event.url}`,
    'The attached event.ics adds the event to your calendar.',
    '',
    ...(linkToken
      ? [
          'Your registration, to see it, cancel it or add the event to your calendar:',
          `${config.siteUrl}${attendeePath(attendee.id, { token: linkToken })}`,
          'Keep this link to yourself: whoever has it can cancel your registration.',
        ]
      : ['To see or cancel your registration, use the link in the first e-mail about it.']),
  ];
  const host = new URL(config.siteUrl).hostname;
  // POST /qr is the tickets namespace's: the code names it there, as the attendee's page does.
  const qr = going ? [await checkInQr(ticketsRoot(), attendee)] : [];
  return {
    from: config.mailFrom,
    to: mailbox(attendee.full_name, attendee.email),
    subject: `${kind === 'promoted' ? 'A seat is yours' : going ? 'Your ticket' : 'Your registration'}: ${title}`,
    text: `${lines.join('\r\n')}\r\n`,
    attachments: [
      {
        filename: 'event.ics',
        contentType: 'text/calendar; charset=UTF-8; method=PUBLISH',
        content: ics.body,
      },
      ...qr,
    ],
    messageId: `${mailName(attendee.id, kind)}@${host}`,
    date: now,
  };
}

/** The check-in address of an attendee as a QR code: what a door's scanner reads (docs/tickets.md). */
async function checkInQr(root: string, attendee: AttendeeRecord): Promise<MailAttachment> {
  const png = await checkInQrPng(checkInAddress(root, attendee));
  return { filename: 'qr.png', contentType: 'image/png', content: png };
}
