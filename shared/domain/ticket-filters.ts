import { slugOfLabel } from './attendee-fields';
import { type AttendeeRecord, isAvailable, type TicketRecord } from './tickets';

/**
 * The archive parameters of GET /tickets and GET /attendees (docs/tickets.md) as pure rules over
 * records, after the reference's Ticket_Archive and Attendee_Archive (Event Tickets' repositories):
 * what matches, in which order. The services resolve the parameters (dates read, the caller's rights
 * applied) into these filters and read the records.
 */

export interface Range {
  min?: number;
  max?: number;
}

const within = (n: number, r: Range | undefined) =>
  !r || ((r.min === undefined || n >= r.min) && (r.max === undefined || n <= r.max));

/** A ticket filter with its parameters resolved; dates as wall times (`Y-m-d H:i:s`). */
export interface TicketFilter {
  include?: number[];
  exclude?: number[];
  /** Only tickets of these events (include_post and post_id together). */
  posts?: number[];
  excludePosts?: number[];
  provider?: string;
  isAvailable?: boolean;
  /** Lower-case words each found in the title or description. */
  words?: string[];
  /** Site-local now, for is_available. */
  nowWall: string;
  /** Created (date_utc) on or after / on or before, UTC. */
  after?: string;
  before?: string;
  /** Attendees (going, not going, waiting: every registration not cancelled), checked in, capacity. */
  attendees?: Range;
  checkedIn?: Range;
  capacity?: Range;
  /** A sales start on or after / a sales end on or before (site-local); a ticket without one matches. */
  availableFrom?: string;
  availableUntil?: string;
  /** The statuses the ticket's event must be in. */
  eventStatuses?: string[];
  /** Currency codes: no ticket has one (payments are not offered), so any code matches nothing. */
  currency?: string[];
}

/** A ticket's registrations that are not cancelled, as its counters hold them. */
export const attendeeCount = (t: TicketRecord): number => t.sold + t.not_going + (t.waitlisted ?? 0);

/**
 * Capacity as the reference's repository compares it: an unlimited ticket (-1) meets any minimum and
 * no maximum.
 */
function capacityWithin(capacity: number, r: Range | undefined): boolean {
  if (!r) return true;
  if (capacity < 0) return r.max === undefined;
  return within(capacity, r);
}

export function ticketMatches(t: TicketRecord, eventStatus: string, f: TicketFilter): boolean {
  if (f.include?.length && !f.include.includes(t.id)) return false;
  if (f.exclude?.includes(t.id)) return false;
  if (f.posts?.length && !f.posts.includes(t.post_id)) return false;
  if (f.excludePosts?.includes(t.post_id)) return false;
  if (f.provider && t.provider !== f.provider) return false;
  if (f.isAvailable !== undefined && isAvailable(t, f.nowWall) !== f.isAvailable) return false;
  if (f.after && t.date_utc < f.after) return false;
  if (f.before && t.date_utc > f.before) return false;
  if (!within(attendeeCount(t), f.attendees) || !within(t.checked_in, f.checkedIn)) return false;
  if (!capacityWithin(t.capacity, f.capacity)) return false;
  if (f.availableFrom && t.available_from && t.available_from < f.availableFrom) return false;
  if (f.availableUntil && t.available_until && t.available_until > f.availableUntil) return false;
  if (f.eventStatuses && !f.eventStatuses.includes(eventStatus)) return false;
  if (f.currency?.length) return false;
  const text = `${t.title} ${t.description}`.toLowerCase();
  return (f.words ?? []).every((w) => text.includes(w));
}

/** An attendee filter with its parameters resolved; dates as UTC wall times. */
export interface AttendeeFilter {
  posts?: number[];
  excludePosts?: number[];
  tickets?: number[];
  excludeTickets?: number[];
  include?: number[];
  exclude?: number[];
  checkedIn?: boolean;
  /** rsvp_going_status: yes (going) or no (anything else). */
  going?: boolean;
  providers?: string[];
  /** Lower-case words each found in the name or the e-mail address. */
  words?: string[];
  /** Lower-case text the name / the e-mail address must hold. */
  name?: string;
  email?: string;
  after?: string;
  before?: string;
  /** The attendee statuses listed (by default every one but cancelled). */
  statuses: string[];
  eventStatuses?: string[];
}

export function attendeeMatches(a: AttendeeRecord, eventStatus: string, f: AttendeeFilter): boolean {
  if (!f.statuses.includes(a.status)) return false;
  if (f.posts?.length && !f.posts.includes(a.post_id)) return false;
  if (f.excludePosts?.includes(a.post_id)) return false;
  if (f.tickets?.length && !f.tickets.includes(a.ticket_id)) return false;
  if (f.excludeTickets?.includes(a.ticket_id)) return false;
  if (f.include?.length && !f.include.includes(a.id)) return false;
  if (f.exclude?.includes(a.id)) return false;
  if (f.checkedIn !== undefined && a.checked_in !== f.checkedIn) return false;
  if (f.going !== undefined && (a.status === 'going') !== f.going) return false;
  if (f.providers?.length && !f.providers.includes(a.provider)) return false;
  if (f.after && a.date_utc < f.after) return false;
  if (f.before && a.date_utc > f.before) return false;
  if (f.eventStatuses && !f.eventStatuses.includes(eventStatus)) return false;
  const name = a.full_name.toLowerCase();
  const email = a.email.toLowerCase();
  if (f.name && !name.includes(f.name)) return false;
  if (f.email && !email.includes(f.email)) return false;
  return (f.words ?? []).every((w) => name.includes(w) || email.includes(w));
}

/** Lower-case words of a search text. */
export const wordsOf = (text: string | undefined): string[] =>
  text?.toLowerCase().split(/\s+/).filter(Boolean) ?? [];

export interface Ordering {
  orderby: 'id' | 'date' | 'include' | 'title' | 'slug';
  descending: boolean;
  /** The include list, for `orderby=include` (its order; records not in it after, by ID). */
  include?: number[];
}

/** Made at the first ordered list, not when a function loads (cold starts pay for what they use). */
let collator: Intl.Collator | undefined;
const compareText = (a: string, b: string) =>
  (collator ??= new Intl.Collator('en', { sensitivity: 'base', numeric: true })).compare(a, b);

/**
 * Records in the order asked for, ties by ID; a new array. `title` is the ticket's title or the
 * attendee's name, `slug` its slug form (accents and punctuation dropped), `date` the creation time.
 */
export function ordered<T extends { id: number; date_utc: string }>(
  records: T[],
  o: Ordering,
  titleOf: (r: T) => string,
): T[] {
  const at = (id: number) => {
    const i = o.include?.indexOf(id) ?? -1;
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  const key = (a: T, b: T): number => {
    switch (o.orderby) {
      case 'date':
        return a.date_utc < b.date_utc ? -1 : a.date_utc > b.date_utc ? 1 : 0;
      case 'include':
        return at(a.id) - at(b.id);
      case 'title':
        return compareText(titleOf(a), titleOf(b));
      case 'slug':
        return compareText(slugOfLabel(titleOf(a)), slugOfLabel(titleOf(b)));
      default:
        return 0;
    }
  };
  const sign = o.descending ? -1 : 1;
  return [...records].sort((a, b) => sign * (key(a, b) || a.id - b.id));
}
