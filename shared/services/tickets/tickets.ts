import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { nowDates, nowStamps } from '../../domain/clock';
import { DomainError, forbidden, notFound } from '../../domain/errors';
import type { FieldInput } from '../../domain/attendee-fields';
import type { PostHead } from '../../domain/records';
import {
  type AttendeeRecord,
  attendeeNotFound,
  fullWall,
  managesAttendees,
  paymentsNotOffered,
  soldOut,
  type TicketRecord,
  ticketNotFound,
  ticketUnavailable,
} from '../../domain/tickets';
import { ticketState } from '../../domain/changes';
import { checkInAddress } from './check-in-code';
import { canSee } from '../../domain/visibility';
import { nextPostId } from '../../repositories/posts';
import * as repo from '../../repositories/tickets';
import { attendeeOut, eventOf, nowWall, ticketOut as view, type TicketCaller } from './caller';
import { tooManyRegistrations } from '../../domain/rate-limits';
import { answersOf, fieldsOf } from './attendee-information';
import { registrationLimits } from './registration-limits';

/** The use cases of the tickets namespace (docs/tickets.md); handlers in functions/tickets are thin. */

export type { TicketCaller } from './caller';

type TicketInput = {
  post_id?: number;
  provider?: 'rsvp' | 'tickets';
  title?: string;
  description?: string;
  capacity?: number;
  cost?: number;
  available_from?: string;
  available_until?: string;
  requires_attendee_information?: boolean;
  attendee_information_fields?: FieldInput[];
};

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/** The ticket and its event as the caller may see them; 404 for both a missing and a hidden one. */
async function visibleTicket(
  id: number,
  c: TicketCaller,
): Promise<{ ticket: TicketRecord; event: PostHead }> {
  const ticket = await repo.getTicket(id);
  const event = ticket && (await eventOf(ticket.post_id));
  if (!ticket || !event || !canSee(event, c.user)) throw ticketNotFound(id);
  return { ticket, event };
}

function checkInput(body: TicketInput): void {
  if (body.cost !== undefined && body.cost > 0) throw paymentsNotOffered();
}

export async function createTicket(body: TicketInput & { post_id: number; title: string }, c: TicketCaller) {
  checkInput(body);
  const fields = fieldsOf(body);
  const event = await eventOf(body.post_id);
  if (!event || !canSee(event, c.user)) throw notFound('event', body.post_id);
  const now = new Date();
  const record: TicketRecord = {
    id: await nextPostId(),
    post_id: body.post_id,
    author: c.user?.sub ?? '',
    status: 'publish',
    ...nowDates(now),
    ...nowStamps(now),
    provider: body.provider ?? 'rsvp',
    title: body.title,
    description: body.description ?? '',
    capacity: body.capacity ?? -1,
    sold: 0,
    not_going: 0,
    checked_in: 0,
    registrations: 0,
    waitlisted: 0,
    ...(body.available_from ? { available_from: fullWall(body.available_from, false) } : {}),
    ...(body.available_until ? { available_until: fullWall(body.available_until, true) } : {}),
    ...fields,
  };
  // The event's ticket count moves with it (`ticketed=`); an event deleted meanwhile takes no ticket.
  if (!(await repo.putTicket(record, ticketState(event)))) throw notFound('event', body.post_id);
  return view(record, c, []);
}

export async function getTicket(id: number, c: TicketCaller) {
  const { ticket, event } = await visibleTicket(id, c);
  const attendees = managesAttendees(c.user, event.author)
    ? await repo.listAttendees({ ticketId: id })
    : undefined;
  return view(ticket, c, attendees);
}

export async function updateTicket(id: number, body: TicketInput, c: TicketCaller) {
  checkInput(body);
  const { ticket, event: was } = await visibleTicket(id, c);
  const moved = body.post_id !== undefined && body.post_id !== ticket.post_id;
  const event = moved ? await eventOf(body.post_id!) : was;
  if (!event || !canSee(event, c.user)) throw notFound('event', body.post_id!);
  const fields = fieldsOf(body, ticket.attendee_information_fields);
  const { cost: _c, available_from, available_until, requires_attendee_information: _r, ...rest } = body;
  const set: Partial<TicketRecord> = {
    ...(rest as Partial<TicketRecord>),
    ...fields,
    ...(available_from !== undefined ? { available_from: fullWall(available_from, false) } : {}),
    ...(available_until !== undefined ? { available_until: fullWall(available_until, true) } : {}),
    ...nowStamps(),
  };
  const updated = await repo.updateTicket(id, set, body.capacity, moved, ticketState(event));
  if (!updated) {
    const now = await repo.getTicket(id);
    if (!now) throw ticketNotFound(id);
    if (moved && now.registrations > 0)
      throw new DomainError(
        'conflict',
        'ticket_has_attendees',
        'A ticket with attendees stays with its event: create a ticket for the other event instead.',
      );
    throw new DomainError(
      'conflict',
      'capacity_below_sold',
      'The capacity cannot be lower than the seats already taken.',
      { params: { capacity: 'Lower than the seats already taken.' } },
    );
  }
  return view((await promoteWaiting(updated, event.author)) ?? updated, c);
}

/** A capacity raised (or made unlimited) gives its new seats to those waiting, first come first served. */
async function promoteWaiting(t: TicketRecord, eventAuthor: string): Promise<TicketRecord | undefined> {
  let promoted = false;
  for (const a of (t.waitlisted ?? 0) > 0 ? await repo.listAttendees({ ticketId: t.id }) : []) {
    if (a.status !== 'waitlist') continue;
    if (!(await repo.promote(a, nowStamps(), eventAuthor))) {
      const now = await repo.getTicket(t.id);
      if (!now || (now.capacity >= 0 && now.sold >= now.capacity)) break;
      continue;
    }
    promoted = true;
  }
  return promoted ? repo.getTicket(t.id) : undefined;
}

export async function deleteTicket(id: number, c: TicketCaller) {
  const { ticket, event } = await visibleTicket(id, c);
  if (!(await repo.deleteTicket(id, ticketState(event)))) {
    if (!(await repo.getTicket(id))) throw ticketNotFound(id);
    throw new DomainError(
      'conflict',
      'ticket_has_attendees',
      'The ticket has attendees: cancel them first, or close the ticket (available_until).',
    );
  }
  return view(ticket, c);
}

export interface Registration {
  ticket_id: number;
  full_name: string;
  email: string;
  attendee_status?: 'going' | 'not going';
  waitlist?: boolean;
  /** Answers to the ticket's attendee information fields (the reference's name), or as `information`. */
  attendee_meta?: Record<string, unknown>;
  information?: Record<string, unknown>;
}

/** Anyone registers for an available ticket of a published event; the seat is taken at the write. */
export async function register(body: Registration, c: TicketCaller) {
  const ticket = await repo.getTicket(body.ticket_id);
  const event = ticket && (await eventOf(ticket.post_id));
  if (!ticket || !event || !canSee(event, c.user)) throw ticketNotFound(body.ticket_id);
  if (event.status !== 'publish') throw ticketUnavailable(ticket.id, 'its event is not published');
  const status = ticket.provider === 'rsvp' ? (body.attendee_status ?? 'going') : 'going';
  const now = nowWall();
  if (ticket.available_from && now < ticket.available_from)
    throw ticketUnavailable(ticket.id, `it is on offer from ${ticket.available_from}`);
  if (ticket.available_until && now > ticket.available_until)
    throw ticketUnavailable(ticket.id, `it was on offer until ${ticket.available_until}`);
  const information = answersOf(ticket, body);
  const token = randomBytes(24).toString('base64url');
  const at = new Date();
  const attendee: AttendeeRecord = {
    id: await nextPostId(),
    post_id: ticket.post_id,
    ticket_id: ticket.id,
    status,
    ...nowDates(at),
    ...nowStamps(at),
    provider: ticket.provider,
    full_name: body.full_name.trim(),
    email: body.email.trim().toLowerCase(),
    checked_in: false,
    security_code: randomBytes(5).toString('hex'),
    token_hash: hash(token),
    author: c.user?.sub ?? '',
    ...(information ? { information } : {}),
  };
  const counts = registrationLimits(c, attendee.email, at.getTime());
  // The confirmation's item keeps the token for the mail's link until the mail is sent (docs/tickets.md).
  const outcome = await repo.register(attendee, event.author, body.waitlist === true, counts, token);
  if (typeof outcome === 'object') throw tooManyRegistrations(counts[outcome.limited]!, Date.now());
  if (outcome === 'sold_out') throw soldOut(ticket.id);
  if (outcome === 'gone') throw ticketNotFound(ticket.id);
  const saved: AttendeeRecord = outcome === 'waitlisted' ? { ...attendee, status: 'waitlist' } : attendee;
  // The registrant sees their own address and the secret that lets them cancel; nobody else gets it.
  // Those going also see the security code their confirmation carries, to show it at the door at once
  // (the self-service link, which the token opens, shows it as well).
  const code = saved.status === 'going' ? { security_code: saved.security_code } : {};
  return { ...attendeeOut(saved, c, true), token, ...code };
}

/** The attendee and whether the caller manages its event's attendees. */
async function attendeeFor(id: number, c: TicketCaller) {
  const attendee = await repo.getAttendee(id);
  const event = attendee && (await eventOf(attendee.post_id));
  if (!attendee || !event) throw attendeeNotFound(id);
  return { attendee, author: event.author, manages: managesAttendees(c.user, event.author) };
}

export async function getAttendee(id: number, c: TicketCaller) {
  const { attendee, manages } = await attendeeFor(id, c);
  if (!manages) throw forbidden();
  return attendeeOut(attendee, c, true);
}

export async function checkIn(id: number, checkedIn: boolean, c: TicketCaller) {
  const { attendee, manages, author } = await attendeeFor(id, c);
  if (!manages) throw forbidden();
  if (attendee.status !== 'going')
    throw new DomainError(
      'conflict',
      'attendee_not_going',
      'Only an attendee who is going can be checked in.',
    );
  if (attendee.checked_in !== checkedIn && !(await repo.setCheckIn(attendee, checkedIn, nowStamps(), author)))
    throw new DomainError(
      'conflict',
      'rest_conflict',
      'The attendee changed at the same time; read it again.',
    );
  return attendeeOut((await repo.getAttendee(id)) ?? attendee, c, true);
}

/** Whether `token` is the attendee's secret: its SHA-256 compared in constant time. */
const ownsAttendee = (a: AttendeeRecord, token: string | undefined): boolean =>
  token !== undefined &&
  a.token_hash.length === 64 &&
  timingSafeEqual(Buffer.from(hash(token), 'hex'), Buffer.from(a.token_hash, 'hex'));

/** A registration as its attendee sees it on their own page (docs/tickets.md, "Pages"). */
export interface OwnRegistration {
  /** The attendee, with their own e-mail address. */
  attendee: ReturnType<typeof attendeeOut>;
  /** What the attendee shows at the door (only while going). */
  security_code?: string;
  /** The check-in address a door's scanner reads (`POST /qr`), only while going. */
  check_in_url?: string;
  ticket: ReturnType<typeof view>;
}

/**
 * The attendee's own registration, by the secret token of their link: a missing, unknown or wrong
 * token is the same 404 as an unknown attendee, so a link tells nothing of attendees it does not open.
 */
export async function ownRegistration(
  id: number,
  token: string | undefined,
  c: TicketCaller,
): Promise<OwnRegistration> {
  const attendee = await repo.getAttendee(id);
  const ticket = attendee && ownsAttendee(attendee, token) && (await repo.getTicket(attendee.ticket_id));
  if (!attendee || !ticket) throw attendeeNotFound(id);
  const going = attendee.status === 'going';
  return {
    attendee: attendeeOut(attendee, c, true),
    ...(going
      ? { security_code: attendee.security_code, check_in_url: checkInAddress(c.root, attendee) }
      : {}),
    ticket: view(ticket, c),
  };
}

/** Editors (and the event's author) cancel any registration; the attendee with the secret token, their own. */
export async function cancelAttendee(id: number, token: string | undefined, c: TicketCaller) {
  const { attendee, manages, author } = await attendeeFor(id, c);
  const own = ownsAttendee(attendee, token);
  if (!manages && !own) throw forbidden();
  const outcome = attendee.status === 'cancelled' ? 'stale' : await cancelOnce(attendee, author);
  if (outcome !== 'ok') {
    const now = await repo.getAttendee(id);
    if (now?.status === 'cancelled')
      throw new DomainError('gone', 'attendee_cancelled', 'The registration is already cancelled.');
    throw new DomainError('conflict', 'rest_conflict', 'The attendee changed at the same time; retry.');
  }
  return attendeeOut({ ...attendee, status: 'cancelled' }, c, manages || own);
}

/**
 * Cancels, handing a freed seat to the first on the waitlist in the same transaction. The waitlist is
 * read from an index (eventually consistent): while the ticket's count says someone waits whom the
 * read did not show, or the one read stopped waiting, it is read again.
 */
async function cancelOnce(attendee: AttendeeRecord, eventAuthor: string): Promise<repo.CancelOutcome> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const ticket = attendee.status === 'going' ? await repo.getTicket(attendee.ticket_id) : undefined;
    const promote =
      (ticket?.waitlisted ?? 0) > 0
        ? (await repo.listAttendees({ ticketId: attendee.ticket_id })).find((a) => a.status === 'waitlist')
        : undefined;
    const outcome = await repo.cancel(attendee, nowStamps(), eventAuthor, promote);
    if (outcome === 'ok' || outcome === 'stale') return outcome;
    await new Promise((r) => setTimeout(r, 20 + Math.random() * 50));
  }
  return 'stale';
}
