import type { Answers, AttendeeField } from './attendee-fields';
import { DomainError } from './errors';
import { atLeast, type User } from './roles';

/** Tickets and attendees as stored, and the pure rules of their answers (docs/tickets.md). */

export interface TicketRecord {
  id: number;
  post_id: number;
  author: string;
  status: 'publish';
  date: string;
  date_utc: string;
  modified: string;
  modified_utc: string;
  provider: 'rsvp' | 'tickets';
  title: string;
  description: string;
  /** -1: unlimited. */
  capacity: number;
  /** Seats taken (attendees going), attendees not going (RSVP), attendees checked in, registrations ever made. */
  sold: number;
  not_going: number;
  checked_in: number;
  registrations: number;
  /** Attendees on the waitlist (absent on tickets written before the waitlist: none). */
  waitlisted?: number;
  available_from?: string;
  available_until?: string;
  /** Stored by tickets written before attendee fields; the answer derives it from the fields. */
  requires_attendee_information?: boolean;
  /** The questions each registrant answers (docs/tickets.md, "Attendee information"); none when absent. */
  attendee_information_fields?: AttendeeField[];
}

export interface AttendeeRecord {
  id: number;
  post_id: number;
  ticket_id: number;
  /** `waitlist`: waiting for a seat; promoted to `going` in the transaction that frees one. */
  status: 'going' | 'not going' | 'waitlist' | 'cancelled';
  date: string;
  date_utc: string;
  modified: string;
  modified_utc: string;
  provider: 'rsvp' | 'tickets';
  full_name: string;
  email: string;
  checked_in: boolean;
  checkin_utc?: string | null;
  security_code: string;
  /** SHA-256 of the secret the registration's answer gave the attendee (the secret itself is not kept). */
  token_hash: string;
  /** The signed-in caller who registered, when there was one. */
  author: string;
  /** Answers to the ticket's attendee information fields, by slug (only managers see them). */
  information?: Answers;
}

export const paymentsNotOffered = () =>
  new DomainError(
    'invalid',
    'rest_payments_not_offered',
    'Payments are not offered: a ticket must be free (cost 0); RSVPs and free tickets only.',
    { params: { cost: 'Payments are not offered.' } },
  );

/** 409 with the waitlist's offer: the same registration with `waitlist: true` joins it. */
export const soldOut = (ticketId: number) =>
  new DomainError(
    'conflict',
    'sold_out',
    `Ticket ${ticketId} has no seat left; send the registration again with "waitlist": true to join the waitlist.`,
    { ticket_id: ticketId, waitlist: { available: true, join: { waitlist: true } } },
  );

export const ticketUnavailable = (ticketId: number, why: string) =>
  new DomainError('conflict', 'ticket_not_available', `Ticket ${ticketId} cannot be had: ${why}.`, {
    ticket_id: ticketId,
  });

export const ticketNotFound = (id: number) =>
  new DomainError('not-found', 'rest-ticket-not-found', `Ticket with ID ${id} does not exist.`);

export const attendeeNotFound = (id: number) =>
  new DomainError('not-found', 'rest-attendee-not-found', `Attendee with ID ${id} does not exist.`);

/** Whether the ticket can be had at `nowWall` (site-local `Y-m-d H:i:s`): in its window, a seat left. */
export function isAvailable(t: TicketRecord, nowWall: string): boolean {
  if (t.available_from && nowWall < t.available_from) return false;
  if (t.available_until && nowWall > t.available_until) return false;
  return t.capacity < 0 || t.sold < t.capacity;
}

/** `Y-m-d H:i:s` broken into the reference's `*_details` (false when there is no date). */
export function dateDetails(wall?: string): Record<string, string> | false {
  const m = wall && /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(wall);
  if (!m) return false;
  return {
    year: m[1]!,
    month: m[2]!,
    day: m[3]!,
    hour: m[4] ?? '00',
    minutes: m[5] ?? '00',
    seconds: m[6] ?? '00',
  };
}

/** A wall time as stored: `Y-m-d` becomes the day's start (from) or end (until). */
export const fullWall = (wall: string | undefined, end: boolean): string | undefined =>
  wall === undefined
    ? undefined
    : wall.length === 10
      ? `${wall} ${end ? '23:59:59' : '00:00:00'}`
      : wall.length === 16
        ? `${wall}:00`
        : wall;

/** Editors, administrators and the event's own author manage its tickets' attendees. */
export const managesAttendees = (user: User | null, eventAuthor: string): boolean =>
  atLeast(user, 'editor') || (atLeast(user, 'contributor') && user!.sub === eventAuthor);
