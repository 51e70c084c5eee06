import { DomainError, type ErrorKind } from '../../domain/errors';
import type { EventRecord } from '../../domain/event-record';
import { attendeePath } from '../../domain/page-paths';
import { type EventView, getEvent, readableEvent } from '../events';
import * as tickets from '../tickets';
import { attendeePage, cancelPage, crossSitePage, privateDocument } from './attendee-templates';
import { fieldMessage, readRegistration, type RegistrationField } from './registration-form';
import { eventPage, ticketCaller, visitor } from './render';
import { errorPage, esc } from './templates';
import type { FormState } from './ticket-templates';

/**
 * The tickets' pages that take form posts or hold the attendee's secret (docs/tickets.md, "Pages"):
 * registering from an event's page, the attendee's own page and its cancellation. They go through
 * the tickets service as the API does (`POST /attendees`, `DELETE /attendees/{id}?token=`), so the
 * same rules, capacity and limits apply; what differs is the answer: a page, or a redirect to one.
 */

/** A page's answer: 200, a 303 to `location`, or the status of what went wrong (shared/http). */
export interface PageAnswer {
  outcome: 'ok' | 'see-other' | ErrorKind;
  html: string;
  location?: string;
  /** The attendee's own (their secret is in its address or form): never cached, indexed or referred from. */
  private?: boolean;
  /** Seconds to wait before trying again (a limit on registrations). */
  retryAfter?: number;
}

/** Who registers from a page: nobody signed in, from an address (for the limits on registrations). */
export interface PageVisitor {
  sourceIp?: string;
}

/** The 404 page of the tickets' pages: kept from caches and search engines like the rest of them. */
export const notFoundPage = (what: string): PageAnswer => ({
  outcome: 'not-found',
  html: errorPage(false, what),
  private: true,
});

/** What the page says of a registration the service refused as a whole. */
function problemOf(e: DomainError): string {
  if (e.code === 'sold_out')
    return 'All seats of this ticket are taken. You can join the waitlist: if a seat becomes free, it is yours.';
  if (e.code === 'ticket_not_available') return 'Registration for this ticket is not open now.';
  return e.message;
}

/** The fields the API's 400 names (`data.params`), in the page's words. */
function fieldErrorsOf(e: DomainError): FormState['errors'] {
  const params = e.data.params;
  const names = Array.isArray(params) ? params : Object.keys((params as object | undefined) ?? {});
  const errors: FormState['errors'] = {};
  for (const name of names)
    if (name === 'full_name' || name === 'email' || name === 'attendee_status')
      errors[name as RegistrationField] = fieldMessage(name as RegistrationField, 'format');
  return errors;
}

const retryAfterOf = (e: DomainError): number | undefined => {
  const s = e.data.retry_after ?? e.data.retryAfter;
  return typeof s === 'number' && s > 0 ? Math.ceil(s) : undefined;
};

/**
 * `POST /event/<slug>/register/`: registers the form's attendee and answers 303 to their own page
 * (its address carries the secret token, which the mail carries too), or the event's page again with
 * the form as sent and what was wrong: 400 (a field), 409 (no seat left: the form now offers the
 * waitlist; closed), the status of a limit (429), 404 for an event or ticket a visitor cannot see.
 */
export async function registerFromPage(
  slug: string,
  form: URLSearchParams,
  o: { shell: string } & PageVisitor,
): Promise<PageAnswer> {
  let event: EventRecord;
  try {
    event = await readableEvent({ slug }, visitor);
  } catch (e) {
    if (e instanceof DomainError) return notFoundPage('event');
    throw e;
  }
  const posted = readRegistration(form);
  if (posted.ticketId === undefined) return notFoundPage('ticket');
  const ticketId = posted.ticketId;
  const again = async (kind: ErrorKind, extra: Partial<FormState> = {}, retryAfter?: number) => ({
    outcome: kind,
    html: (
      await eventPage(event, o.shell, { ticketId, values: posted.values, errors: posted.errors, ...extra })
    ).html,
    ...(retryAfter ? { retryAfter } : {}),
  });
  if (Object.keys(posted.errors).length > 0) return again('invalid');
  // The ticket must be one of this event's, as a visitor sees it.
  const caller = { ...ticketCaller(), sourceIp: o.sourceIp };
  try {
    const ticket = await tickets.getTicket(ticketId, caller);
    if (ticket.post_id !== event.id) return notFoundPage('ticket');
  } catch (e) {
    if (e instanceof DomainError && e.kind === 'not-found') return notFoundPage('ticket');
    throw e;
  }
  try {
    const attendee = await tickets.register({ ticket_id: ticketId, ...posted.values }, caller);
    return {
      outcome: 'see-other',
      html: '',
      location: attendeePath(attendee.id, { token: attendee.token, done: 'registered' }),
      private: true,
    };
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    if (e.kind === 'not-found') return notFoundPage('ticket');
    if (e.kind === 'invalid') return again('invalid', { errors: fieldErrorsOf(e) });
    return again(e.kind, { errors: {}, problem: problemOf(e) }, retryAfterOf(e));
  }
}

/** The event of a registration as a visitor sees it; undefined once it is not on the calendar. */
async function eventOf(id: number): Promise<EventView | undefined> {
  try {
    return await getEvent({ id }, visitor);
  } catch (e) {
    if (e instanceof DomainError) return undefined;
    throw e;
  }
}

/**
 * `GET /attendee/<id>/?token=` (the attendee's page) and `GET /attendee/<id>/cancel/?token=` (the
 * question before cancelling). A missing, wrong or unknown token is the same 404 as an unknown ID.
 */
export async function attendeeAnswer(
  id: number,
  query: URLSearchParams,
  action?: 'cancel',
): Promise<PageAnswer> {
  const token = query.get('token') ?? undefined;
  let own: tickets.OwnRegistration;
  try {
    own = await tickets.ownRegistration(id, token, ticketCaller());
  } catch (e) {
    if (e instanceof DomainError && e.kind === 'not-found') return notFoundPage('page');
    throw e;
  }
  const event = await eventOf(own.attendee.post_id);
  if (action === 'cancel' && own.attendee.status !== 'cancelled')
    return { outcome: 'ok', html: cancelPage(own, { token: token!, event }), private: true };
  const done = query.get('done');
  const qrSvg = own.check_in_url ? await tickets.checkInQrSvg(own.check_in_url) : undefined;
  return {
    outcome: 'ok',
    html: attendeePage(own, {
      token: token!,
      event,
      qrSvg,
      done: done === 'registered' || done === 'cancelled' ? done : undefined,
    }),
    private: true,
  };
}

/**
 * `POST /attendee/<id>/cancel/` with the form's `token`: cancels (the seat goes to the first waiting)
 * and answers 303 to the attendee's page, which then says so. Cancelled already: the same answer.
 */
export async function cancelFromPage(id: number, form: URLSearchParams): Promise<PageAnswer> {
  const token = form.get('token') ?? undefined;
  try {
    await tickets.cancelAttendee(id, token, ticketCaller());
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    // Not theirs, or no such attendee: the same 404, as for the page itself.
    if (e.kind === 'not-found' || e.kind === 'forbidden') return notFoundPage('page');
    if (e.kind !== 'gone')
      return {
        outcome: e.kind,
        html: privateDocument(
          'Not cancelled',
          `      <h1>Your registration was not cancelled</h1>
      <p>It changed at the same time as you sent the form. <a href="${esc(attendeePath(id, { token }))}">Open it again</a> and try once more.</p>`,
        ),
        private: true,
      };
  }
  return {
    outcome: 'see-other',
    html: '',
    location: attendeePath(id, { token, done: 'cancelled' }),
    private: true,
  };
}

/** A form post sent from another site (shared/http/cross-site.ts): refused, with a page saying so. */
export const crossSiteAnswer = (): PageAnswer => ({
  outcome: 'forbidden',
  html: crossSitePage(),
  private: true,
});
