import type { DateTime } from 'luxon';
import { DomainError, forbidden, notFound } from '../../domain/errors';
import { pageOf, sliceOf } from '../../domain/paging';
import { atLeast } from '../../domain/roles';
import {
  type AttendeeFilter,
  attendeeMatches,
  ordered,
  type Ordering,
  type TicketFilter,
  ticketMatches,
  wordsOf,
} from '../../domain/ticket-filters';
import {
  type AttendeeRecord,
  managesAttendees,
  type TicketRecord,
  ticketNotFound,
} from '../../domain/tickets';
import { canSee } from '../../domain/visibility';
import { getPosts } from '../../repositories/posts';
import * as repo from '../../repositories/tickets';
import type { Infer } from '../../schemas/infer';
import {
  ATTENDEE_STATUSES,
  type attendeesQuery,
  CSV_MAX_ROWS,
  type ticketsQuery,
} from '../../schemas/tickets';
import { attendeeOut, eventOf, nowWall, ticketOut, type TicketCaller } from './caller';

/**
 * GET /tickets and GET /attendees (docs/tickets.md): every record of the partition read, filtered by
 * the archive parameters (domain/ticket-filters.ts), ordered, then `offset` skipped and the page cut.
 * A site's tickets and an event's attendees are tens to thousands: one Query, filtered in memory.
 */

export type TicketQuery = Infer<typeof ticketsQuery>;
export type AttendeeQuery = Infer<typeof attendeesQuery>;

type Bound = 'start' | 'end';

/**
 * A date parameter as a wall time: read as UTC (the reference's "UTC date or timestamp"), in UTC or
 * in the site's zone (where sales windows live). A bare date is its day's start, or end for a bound
 * that includes the day (`before`, `available_until`). The date parser (luxon) is loaded only here.
 */
async function wallOf(param: string, value: string | undefined, bound: Bound, zone: 'utc' | 'site') {
  if (value === undefined) return undefined;
  const { readDateParam, resolveZone, siteZone, utcWall, wall } = await import('../../domain/dates');
  let dt: DateTime = readDateParam(param, value, resolveZone('UTC')!);
  if (bound === 'end' && /^\d{4}-\d{2}-\d{2}$/.test(value.trim())) dt = dt.endOf('day');
  return zone === 'utc' ? utcWall(dt) : wall(dt.setZone(siteZone()));
}

const range = (min?: number, max?: number) =>
  min === undefined && max === undefined ? undefined : { min, max };

const orderingOf = (q: { order?: string; orderby?: string; include?: number[] }): Ordering => ({
  orderby: (q.orderby ?? 'id') as Ordering['orderby'],
  descending: q.order?.toLowerCase() === 'desc',
  include: q.include,
});

/** `post_status` as a filter: undefined for none or `any` (the caller's visibility decides). */
const statusesOf = (list: string[] | undefined) => (list?.length && !list.includes('any') ? list : undefined);

async function ticketFilter(q: TicketQuery, c: TicketCaller): Promise<TicketFilter> {
  // The reference takes the counts and capacity filters from those with manage access only.
  const manager = atLeast(c.user, 'editor');
  const posts = q.post_id !== undefined ? [...(q.include_post ?? []), q.post_id] : q.include_post;
  const [after, before, availableFrom, availableUntil] = await Promise.all([
    wallOf('after', q.after, 'start', 'utc'),
    wallOf('before', q.before, 'end', 'utc'),
    wallOf('available_from', q.available_from, 'start', 'site'),
    wallOf('available_until', q.available_until, 'end', 'site'),
  ]);
  return {
    include: q.include,
    exclude: q.exclude,
    posts,
    excludePosts: q.exclude_post,
    provider: q.provider,
    isAvailable: q.is_available,
    words: wordsOf(q.search),
    nowWall: nowWall(),
    after,
    before,
    availableFrom,
    availableUntil,
    ...(manager
      ? {
          attendees: range(q.attendees_min, q.attendees_max),
          checkedIn: range(q.checkedin_min, q.checkedin_max),
          capacity: range(q.capacity_min, q.capacity_max),
        }
      : {}),
    eventStatuses: statusesOf(q.post_status),
    currency: q.currency,
  };
}

export async function listTickets(q: TicketQuery, c: TicketCaller) {
  const filter = await ticketFilter(q, c);
  const all = await repo.listTickets();
  const events = await getPosts([...new Set(all.map((t) => t.post_id))]);
  const matching = all.filter((t) => {
    const event = events.get(t.post_id);
    return (
      !!event && event.type === 'event' && canSee(event, c.user) && ticketMatches(t, event.status, filter)
    );
  });
  const rest = ordered(matching, orderingOf(q), (t) => t.title).slice(q.offset ?? 0);
  const paging = pageOf(q);
  return { items: sliceOf(rest, paging).map((t) => ticketOut(t, c)), total: rest.length, paging };
}

/** `status` as the statuses listed: `publish` (the default) every one but cancelled, `any` all. */
function attendeeStatuses(list: string[] | undefined): string[] {
  const live = ATTENDEE_STATUSES.filter((s) => s !== 'cancelled');
  if (!list?.length) return live;
  if (list.includes('any')) return [...ATTENDEE_STATUSES];
  return [...new Set(list.flatMap((s) => (s === 'publish' ? live : [s])))];
}

async function attendeeFilter(q: AttendeeQuery): Promise<AttendeeFilter> {
  const [after, before] = await Promise.all([
    wallOf('after', q.after, 'start', 'utc'),
    wallOf('before', q.before, 'end', 'utc'),
  ]);
  return {
    posts: q.post_id !== undefined ? [q.post_id] : q.include_post,
    excludePosts: q.exclude_post,
    tickets: q.ticket_id !== undefined ? [q.ticket_id] : q.include_ticket,
    excludeTickets: q.exclude_ticket,
    include: q.include,
    exclude: q.exclude,
    checkedIn: q.checkedin,
    going: q.rsvp_going_status === undefined ? undefined : q.rsvp_going_status === 'yes',
    providers: q.provider,
    words: wordsOf(q.search),
    name: q.name?.trim().toLowerCase() || undefined,
    email: q.email?.trim().toLowerCase() || undefined,
    after,
    before,
    statuses: attendeeStatuses(q.status),
    eventStatuses: statusesOf(q.post_status),
  };
}

/**
 * The attendees the query names, ordered, `offset` skipped. Editors list any; the event's author lists
 * its attendees with `post_id` or `ticket_id`; nobody else.
 */
async function matchingAttendees(q: AttendeeQuery, c: TicketCaller): Promise<AttendeeRecord[]> {
  let author: string | undefined;
  if (q.ticket_id !== undefined) {
    const ticket = await repo.getTicket(q.ticket_id);
    const event = ticket && (await eventOf(ticket.post_id));
    if (!ticket || !event) throw ticketNotFound(q.ticket_id);
    author = event.author;
  } else if (q.post_id !== undefined) {
    const event = await eventOf(q.post_id);
    if (!event) throw notFound('event', q.post_id);
    author = event.author;
  }
  // Without an event the list spans every event: editors and administrators only.
  if (!managesAttendees(c.user, author ?? '\u0000')) throw forbidden();
  const filter = await attendeeFilter(q);
  const all = await repo.listAttendees({ ticketId: q.ticket_id, eventId: q.post_id });
  const events = filter.eventStatuses ? await getPosts([...new Set(all.map((a) => a.post_id))]) : undefined;
  const matching = all.filter((a) => attendeeMatches(a, events?.get(a.post_id)?.status ?? '', filter));
  return ordered(matching, orderingOf(q), (a) => a.full_name).slice(q.offset ?? 0);
}

export async function listAttendees(q: AttendeeQuery, c: TicketCaller) {
  const rows = await matchingAttendees(q, c);
  const paging = pageOf(q);
  return {
    items: sliceOf(rows, paging).map((a) => attendeeOut(a, c, true)),
    total: rows.length,
    paging,
  };
}

/**
 * The same list as a CSV file (docs/tickets.md, "CSV export"): every matching attendee, not paged, up
 * to CSV_MAX_ROWS, with a column per question of their tickets. Its text, a file name and its rows.
 */
export async function attendeesCsv(
  q: AttendeeQuery,
  c: TicketCaller,
): Promise<{ text: string; name: string; rows: number }> {
  const rows = await matchingAttendees(q, c);
  if (rows.length > CSV_MAX_ROWS)
    throw new DomainError(
      'invalid',
      'rest_csv_too_large',
      `The export holds at most ${CSV_MAX_ROWS} attendees and ${rows.length} match: narrow it (post_id, ticket_id, after, before, status).`,
      { params: { format: `At most ${CSV_MAX_ROWS} attendees; ${rows.length} match.` }, total: rows.length },
    );
  const ids = [...new Set(rows.map((a) => a.ticket_id))];
  const tickets = new Map<number, TicketRecord>();
  for (const t of await Promise.all(ids.map((id) => repo.getTicket(id)))) if (t) tickets.set(t.id, t);
  const [{ attendeeRows }, { stringify }] = await Promise.all([
    import('../../domain/attendee-csv'),
    import('csv-stringify/sync'),
  ]);
  const name =
    q.ticket_id !== undefined
      ? `ticket-${q.ticket_id}`
      : q.post_id !== undefined
        ? `event-${q.post_id}`
        : 'all';
  // A byte order mark, so that spreadsheets read the file as UTF-8 (accented names); CRLF, as RFC 4180.
  return {
    text: stringify(attendeeRows(rows, tickets), { bom: true, record_delimiter: 'windows' }),
    name: `attendees-${name}.csv`,
    rows: rows.length,
  };
}
