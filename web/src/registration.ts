import type { Attendee, Ticket } from './api-types';

/**
 * The rules of the detail dialog's tickets and registration form (tickets-dialog.ts draws them), with
 * no DOM: what a ticket's seats say, what the form checks before sending, the body it sends, how an
 * API refusal is told and what the confirmation says. The API stays the judge of every rule.
 */

/** Where a ticket stands: seats to take, none left (the waitlist is offered), or not on offer now. */
export type TicketState = 'open' | 'sold-out' | 'closed';

export interface TicketStanding {
  state: TicketState;
  /** A short label: "12 seats left", "No seat limit", "Sold out", "Not on offer now". */
  seats: string;
  /** What follows from it for someone who would register, when anything does. */
  note: string;
}

/** A site-local wall time (`Y-m-d H:i:s`) as the page shows it: `Y-m-d H:i`, or the day alone. */
export function wallText(wall: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})(?: (\d{2}:\d{2})(?::\d{2})?)?$/.exec(wall);
  if (!m) return wall;
  return m[2] && m[2] !== '00:00' ? `${m[1]} ${m[2]}` : m[1]!;
}

/** The seats left: -1 when unlimited (the answer's `capacity_details.available`, else worked out). */
export function seatsLeft(t: Ticket): number {
  if (t.capacity < 0) return -1;
  const available = t.capacity_details.available;
  return typeof available === 'number'
    ? Math.max(0, available)
    : Math.max(0, t.capacity - (t.capacity_details.sold ?? 0));
}

export function ticketStanding(t: Ticket): TicketStanding {
  const left = seatsLeft(t);
  if (left === 0)
    return {
      state: 'sold-out',
      seats: 'Sold out',
      note: 'You can join the waitlist: the first waiting gets the next seat freed, and an e-mail says so.',
    };
  if (!t.is_available) {
    const from = t.available_from ? ` from ${wallText(t.available_from)}` : '';
    const until = t.available_until ? ` until ${wallText(t.available_until)}` : '';
    return {
      state: 'closed',
      seats: 'Not on offer now',
      note: from || until ? `Registration is open${from}${until}.` : '',
    };
  }
  return {
    state: 'open',
    seats: left < 0 ? 'No seat limit' : `${left} ${left === 1 ? 'seat' : 'seats'} left`,
    note: t.available_until ? `Registration is open until ${wallText(t.available_until)}.` : '',
  };
}

/** The tickets one can register for now: with seats, or full with the waitlist offered. */
export const registrable = (tickets: Ticket[]): Ticket[] =>
  tickets.filter((t) => ticketStanding(t).state !== 'closed');

/** What the form holds, as typed. */
export interface RegistrationFields {
  ticket: Ticket;
  full_name: string;
  email: string;
  /** RSVP only: going (true) or not going. */
  going: boolean;
}

/** The field names of the API's body, which its 400s name too: the form's fields carry them. */
export type RegistrationField = 'full_name' | 'email';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** `{field: message}` for what the form can tell is wrong before sending, every problem at once. */
export function checkRegistration(f: Pick<RegistrationFields, 'full_name' | 'email'>) {
  const out: Partial<Record<RegistrationField, string>> = {};
  const name = f.full_name.trim();
  const email = f.email.trim();
  if (!name) out.full_name = 'Enter your name.';
  else if (name.length > 200) out.full_name = 'Enter a name of at most 200 characters.';
  if (!email) out.email = 'Enter your e-mail address: the confirmation goes there.';
  else if (!EMAIL.test(email) || email.length > 254)
    out.email = 'Enter an e-mail address such as name@example.org.';
  return out;
}

/**
 * The body of POST /attendees. A free ticket is always `going` (the API reads `attendee_status` for an
 * RSVP only); a `not going` answer takes no seat, so it never waits; a sold-out ticket is asked for
 * with `waitlist` (joining it, or the seat if one was freed meanwhile).
 */
export function registrationBody(f: RegistrationFields) {
  const going = f.ticket.provider !== 'rsvp' || f.going;
  return {
    ticket_id: f.ticket.id,
    full_name: f.full_name.trim(),
    email: f.email.trim(),
    attendee_status: going ? ('going' as const) : ('not going' as const),
    waitlist: going && ticketStanding(f.ticket).state === 'sold-out',
  };
}

/** An API refusal as the form reads it (tickets-dialog.ts makes it from the client's error). */
export interface Refusal {
  status: number;
  code: string;
  message: string;
  /** The API's messages by parameter (`data.params` / `data.details`). */
  fields: Record<string, string>;
  /** The Retry-After header of a 429 (seconds), when there is one. */
  retryAfter: string | null;
}

export interface RefusalText {
  /** The summary above the form. */
  summary: string;
  /** Messages for the form's own fields. */
  fields: Partial<Record<RegistrationField, string>>;
  /** The seat went meanwhile: the form now offers the waitlist. */
  soldOut: boolean;
}

/** "in 5 minutes", "in a minute", "later" from a Retry-After of seconds (an HTTP date reads as later). */
export function retryText(retryAfter: string | null): string {
  const seconds = Number(retryAfter);
  if (!retryAfter || !Number.isFinite(seconds) || seconds <= 0) return 'later';
  const minutes = Math.ceil(seconds / 60);
  if (minutes <= 1) return 'in a minute';
  if (minutes < 120) return `in ${minutes} minutes`;
  return `in ${Math.ceil(minutes / 60)} hours`;
}

/** What the form says of a refused registration. */
export function refusalText(r: Refusal): RefusalText {
  const fields: RefusalText['fields'] = {};
  const elsewhere: string[] = [];
  for (const [name, message] of Object.entries(r.fields)) {
    if (name === 'full_name' || name === 'email') fields[name] = message;
    else elsewhere.push(message);
  }
  const text = (summary: string, soldOut = false) => ({ summary, fields, soldOut });
  if (r.status === 409 && r.code === 'sold_out')
    return text(
      'The last seat was just taken. You can join the waitlist: the first waiting gets the next seat freed.',
      true,
    );
  if (r.status === 429)
    return text(
      `Too many registrations from this address or network: please try again ${retryText(r.retryAfter)}.`,
    );
  if (r.status === 404) return text('This ticket is no longer offered.');
  if (r.status === 0) return text(`Could not reach the server: ${r.message} Nothing was sent.`);
  if (r.status === 400 && (fields.full_name || fields.email) && !elsewhere.length)
    return text('Please check the fields marked below.');
  return text([r.message, ...elsewhere.filter((m) => m !== r.message)].join(' '));
}

/** The registration's answer: the attendee, with the secret and the code only the registrant gets. */
export type Registered = Attendee & { token?: string; security_code?: string };

export interface Confirmation {
  heading: string;
  lines: string[];
}

export function confirmation(a: Registered): Confirmation {
  const lines: string[] = [];
  let heading: string;
  if (a.status === 'waitlist') {
    heading = 'You are on the waitlist';
    lines.push('The event is full. If a seat is freed and it is yours, an e-mail tells you.');
  } else if (a.status === 'not going') {
    heading = 'Your answer is recorded';
    lines.push('Not going: thank you for letting the organizer know.');
  } else {
    heading = 'You are registered';
    lines.push('A seat is yours.');
  }
  lines.push(`Attendee number: ${a.id}`);
  if (a.security_code)
    lines.push(`Security code: ${a.security_code} (show it at the door with your attendee number)`);
  if (a.email) lines.push(`A confirmation is on its way to ${a.email}.`);
  return { heading, lines };
}
