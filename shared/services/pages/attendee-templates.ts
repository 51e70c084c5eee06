import { NAMESPACE_PATH } from '../../config';
import { attendeePath } from '../../domain/page-paths';
import type { EventView } from '../events';
import type { OwnRegistration } from '../tickets';
import { esc, eventDates, SITE_NAME, sitePath } from './templates';

/**
 * The attendee's own pages (docs/tickets.md, "Pages"), reached by the secret link of their
 * registration: what they registered for and how it stands, the code to show at the door, the event
 * for their calendar, and cancelling (asked first, on a page of its own: no script needed). Plain
 * documents with the calendar's style and no script; `noindex` and `no-referrer` (the address holds
 * the secret: no link out of the page may carry it away in a Referer).
 */

/** A page of its own (not the calendar's): the site's style, no script, never indexed, no referrer. */
export function privateDocument(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex, nofollow" />
    <meta name="referrer" content="no-referrer" />
    <title>${esc(title)} – ${SITE_NAME}</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="/app.css" />
  </head>
  <body>
    <header class="top">
      <p class="site-name"><a href="/">${SITE_NAME}</a></p>
    </header>
    <main class="own-page">
${body}
    </main>
  </body>
</html>`;
}

const STATUS: Record<string, string> = {
  going: 'You are going: a seat is yours.',
  'not going': 'You answered that you are not going.',
  waitlist: 'You are on the waitlist: if a seat becomes free, it is yours and you get an e-mail.',
  cancelled: 'This registration is cancelled.',
};

const DONE: Record<'registered' | 'cancelled', string> = {
  registered:
    'Thank you, your registration is recorded. A confirmation is on its way to your e-mail address, with the link to this page.',
  cancelled: 'Your registration is cancelled.',
};

const row = (label: string, value: string, role?: string) =>
  `<dt>${esc(label)}</dt><dd${role ? ` data-role="${role}"` : ''}>${value}</dd>`;

/** The event's title, linked to its page, or what is known when it is no longer on the calendar. */
const eventLink = (event: EventView | undefined) =>
  event
    ? `<a href="${esc(sitePath(event.url))}">${esc(event.title)}</a>`
    : 'This event is no longer on the calendar.';

/**
 * The attendee's page. `qrSvg`: the check-in code as an SVG image (while going); `done`: what just
 * happened, for the notice at the top.
 */
export function attendeePage(
  own: OwnRegistration,
  o: { token: string; event?: EventView; qrSvg?: string; done?: 'registered' | 'cancelled' },
): string {
  const a = own.attendee;
  const status = String(a.status);
  const rows = [
    row('Event', eventLink(o.event), 'event'),
    ...(o.event ? [row('When', esc(eventDates(o.event)), 'dates')] : []),
    row('Ticket', esc(own.ticket.title), 'ticket'),
    row('Name', esc(a.title), 'name'),
    row('Status', esc(STATUS[status] ?? status), 'status'),
    row('Registration number', String(a.id), 'attendee-id'),
    ...(own.security_code
      ? [row('Security code', `<code>${esc(own.security_code)}</code>`, 'security-code')]
      : []),
    ...(a.checked_in ? [row('Checked in', 'Yes', 'checked-in')] : []),
  ];
  const qr = o.qrSvg
    ? `<figure class="check-in-code">
        <img src="data:image/svg+xml;base64,${Buffer.from(o.qrSvg).toString('base64')}" width="200" height="200" alt="QR code to check in at the door" data-role="qr" />
        <figcaption>Show this code, or your security code, at the door.</figcaption>
      </figure>`
    : '';
  // The events API's own .ics of the event (GET /events/{id}/ical), on this site's origin.
  const calendar =
    o.event && status !== 'cancelled'
      ? `<p><a href="${NAMESPACE_PATH}/events/${a.post_id}/ical" data-role="add-to-calendar">Add the event to your calendar (.ics)</a></p>`
      : '';
  const cancel =
    status !== 'cancelled'
      ? `<p><a class="button" href="${esc(attendeePath(a.id, { token: o.token, action: 'cancel' }))}" data-role="cancel">Cancel my registration…</a></p>`
      : '';
  const notice = o.done ? `<p class="notice" role="status" data-role="done">${esc(DONE[o.done])}</p>` : '';
  return privateDocument(
    `Your registration: ${o.event?.title ?? own.ticket.title}`,
    `      ${notice}
      <h1>Your registration</h1>
      <dl class="registration">${rows.join('')}</dl>
      ${qr}
      ${calendar}
      ${cancel}
      <p class="hint">This page's address is your own link to your registration: keep it to yourself, as whoever has it can cancel the registration.</p>`,
  );
}

/** The question before cancelling: a form that posts the cancellation, and the way back. */
export function cancelPage(own: OwnRegistration, o: { token: string; event?: EventView }): string {
  const a = own.attendee;
  const what = o.event ? esc(o.event.title) : esc(own.ticket.title);
  const seat =
    a.status === 'going'
      ? ' Your seat goes to the first person on the waitlist, or back on sale.'
      : a.status === 'waitlist'
        ? ' You leave the waitlist.'
        : '';
  return privateDocument(
    'Cancel your registration?',
    `      <h1>Cancel your registration?</h1>
      <p>Your registration for <strong>${what}</strong> (${esc(own.ticket.title)}) will be cancelled.${seat} To come after all, you would register again, if seats are left.</p>
      <form method="post" action="${esc(attendeePath(a.id, { action: 'cancel' }))}" class="actions">
        <input type="hidden" name="token" value="${esc(o.token)}" />
        <button type="submit" data-role="confirm-cancel">Yes, cancel my registration</button>
        <a href="${esc(attendeePath(a.id, { token: o.token }))}" data-role="keep">No, keep it</a>
      </form>`,
  );
}

/** A refused form post (sent from another site): a page saying so, with the way back. */
export const crossSitePage = (): string =>
  privateDocument(
    'Form refused',
    `      <h1>This form was not sent from this site</h1>
      <p>For your safety, forms of this site are only taken from its own pages. Open the page again and send the form from there.</p>
      <p><a href="/">Back to the calendar</a></p>`,
  );
