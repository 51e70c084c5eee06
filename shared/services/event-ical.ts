import { createHash } from 'node:crypto';
import ical, { ICalCalendarMethod, type ICalEventData, ICalEventStatus } from 'ical-generator';
import { DateTime } from 'luxon';
import { tzlib_get_ical_block, tzlib_get_timezones } from 'timezones-ical-library';
import { config } from '../config';
import { readDateParam, siteZone } from '../domain/dates';
import { descriptionText, foldContentLines, paramText } from '../domain/ical-text';
import type { eventIcalQuery } from '../schemas/ical';
import type { Infer } from '../schemas/infer';
import type { Caller } from './context';
import { type EventListQuery, listEvents } from './event-list';
import { getEvent } from './event-read';
import type { EventView } from './event-view';

/**
 * The iCalendar (RFC 5545) routes: a feed of the events GET /events would list, in a window, and one
 * event as GET /events/{id} shows it. The events come from the JSON services (same filters, same
 * visibility); this module only renders them and works out what conditional GETs compare.
 */

export type IcalQuery = Infer<typeof eventIcalQuery>;

/** A rendered calendar and what conditional GETs compare it by. */
export interface CalendarDocument {
  body: string;
  /** Weak entity tag (`W/"…"`): a hash of the events as read, the query and the caller. */
  etag: string;
  /** HTTP date of the newest modified_utc shown (events, venues, organizers); none without events. */
  lastModified?: string;
}

/** Days before and after now of the default window. */
export const FEED_DAYS_BEFORE = 30;
export const FEED_DAYS_AFTER = 365;
/** Page size the feed reads the list service with, and how many pages it reads at once. */
const PAGE_SIZE = 50;
const PARALLEL_PAGES = 4;
/** Bump when the rendering changes, so the entity tags of unchanged data change with it. */
const FORMAT = 1;
/** SEQUENCE is modified_utc in seconds since this instant (fits 32 bits until 2088). */
const SEQUENCE_EPOCH = Date.UTC(2020, 0, 1) / 1000;

/**
 * start_date / end_date of a feed: those given, else 30 days before now (or before end_date when that is
 * earlier) and 365 days after now (or after start_date when that is later), as days in the site zone.
 */
export function feedWindow(
  q: Pick<IcalQuery, 'start_date' | 'end_date'>,
  now: DateTime,
): { start_date: string | number; end_date: string | number } {
  const zone = siteZone();
  const local = now.setZone(zone);
  const day = (dt: DateTime) => dt.toFormat('yyyy-MM-dd');
  const given = (param: 'start_date' | 'end_date') =>
    q[param] === undefined ? undefined : readDateParam(param, q[param], zone).setZone(zone);
  const start = given('start_date');
  const end = given('end_date');
  return {
    start_date: q.start_date ?? day(DateTime.min(local, end ?? local).minus({ days: FEED_DAYS_BEFORE })),
    end_date: q.end_date ?? day(DateTime.max(local, start ?? local).plus({ days: FEED_DAYS_AFTER })),
  };
}

/** GET /events/ical: every event GET /events would list for these filters, in the window, up to the cap. */
export async function eventsFeed(q: IcalQuery, ctx: Caller & { now?: DateTime }): Promise<CalendarDocument> {
  const now = ctx.now ?? DateTime.now();
  const { limit: asked, ...filters } = q;
  const limit = Math.min(asked ?? config.icalMaxEvents, config.icalMaxEvents);
  const base: EventListQuery = { ...filters, ...feedWindow(q, now), per_page: PAGE_SIZE };
  const read = (page: number) => listEvents({ ...base, page }, { ...ctx, now });

  const first = await read(1);
  const pages = Math.ceil(Math.min(first.total, limit) / first.paging.perPage);
  const rest: Array<Awaited<ReturnType<typeof read>>> = [];
  for (let from = 2; from <= pages; from += PARALLEL_PAGES) {
    const batch = [];
    for (let page = from; page < from + PARALLEL_PAGES && page <= pages; page++) batch.push(read(page));
    rest.push(...(await Promise.all(batch)));
  }
  // Pages read at different moments may overlap when an event is added meanwhile: each ID once.
  const seen = new Set<number>();
  const events = [first, ...rest]
    .flatMap((p) => p.items)
    .filter((e) => !seen.has(e.id) && seen.add(e.id))
    .slice(0, limit);
  return calendarOf(events, now, { kind: 'feed', query: { ...base, limit }, user: ctx.user });
}

/** GET /events/{id}/ical: the event as GET /events/{id} shows it (same 403 / 404), in a VCALENDAR. */
export async function eventCalendar(id: number, ctx: Caller & { now?: DateTime }): Promise<CalendarDocument> {
  const event = await getEvent({ id }, ctx);
  return calendarOf([event], ctx.now ?? DateTime.now(), { kind: 'event', id, user: ctx.user });
}

function calendarOf(events: EventView[], now: DateTime, request: object): CalendarDocument {
  const hash = createHash('sha256')
    .update(JSON.stringify({ format: FORMAT, site: [config.siteUrl, config.siteTimezone], request }))
    .update(JSON.stringify(events))
    .digest('base64url')
    .slice(0, 32);
  const newest = events
    .flatMap((e) => [e.modified_utc, ...linked(e.venue), ...linked(e.organizer)].map((m) => m ?? ''))
    .reduce((a, b) => (b > a ? b : a), '');
  const modified = newest ? DateTime.fromSQL(newest, { zone: 'utc' }) : undefined;
  return {
    body: renderCalendar(events, now),
    etag: `W/"${hash}"`,
    lastModified: modified?.isValid ? modified.toHTTP() : undefined,
  };

  function linked(v: unknown): Array<string | undefined> {
    return (Array.isArray(v) ? v : [v]).map((r) => field(r, 'modified_utc'));
  }
}

// ---------------------------------------------------------------------------------------------------
// Rendering

/** IANA zones the VTIMEZONE library knows (tzdata compiled in: nothing is read at run time). */
const ZONES = new Set(tzlib_get_timezones() as string[]);
/** UTC and fixed offsets (`Etc/GMT+5`, like `UTC+5` events) are written in UTC instead. */
const UNIVERSAL = /^(Etc\/|GMT|UTC|UCT|Zulu|Universal|Greenwich)/;

/** TZID for an event's zone, or undefined to write its times in UTC. */
export function tzidOf(zone: string): string | undefined {
  return ZONES.has(zone) && !UNIVERSAL.test(zone) ? zone : undefined;
}

function vtimezone(tzid: string): string | null {
  if (!ZONES.has(tzid)) return null;
  const block = tzlib_get_ical_block(tzid);
  return Array.isArray(block) ? (block[0] ?? null) : null;
}

const siteHost = () => new URL(config.siteUrl).hostname;

/** The UID of an event: never changes, whatever is edited (the slug included). */
export const eventUid = (id: number) => `event-${id}@${siteHost()}`;

/** SEQUENCE: grows with every update, as modified_utc does (whole seconds since 2020). */
export function sequenceOf(modifiedUtc: string | undefined): number {
  const at = modifiedUtc ? DateTime.fromSQL(modifiedUtc, { zone: 'utc' }) : undefined;
  return at?.isValid ? Math.max(0, Math.floor(at.toSeconds() - SEQUENCE_EPOCH)) : 0;
}

const STATUS: Record<string, ICalEventStatus> = {
  publish: ICalEventStatus.CONFIRMED,
  private: ICalEventStatus.CONFIRMED,
  draft: ICalEventStatus.TENTATIVE,
  pending: ICalEventStatus.TENTATIVE,
  future: ICalEventStatus.TENTATIVE,
  trash: ICalEventStatus.CANCELLED,
};

function field(record: unknown, key: string): string | undefined {
  const v = (record as Record<string, unknown> | null | undefined)?.[key];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

function coordinate(record: unknown, key: string): number | undefined {
  const v = (record as Record<string, unknown> | null | undefined)?.[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** LOCATION: the venue's name, street, city, state or province with the postal code, and country. */
export function locationText(venue: unknown): string | undefined {
  const region = [field(venue, 'stateprovince'), field(venue, 'zip')].filter(Boolean).join(' ');
  const parts = [
    field(venue, 'venue'),
    field(venue, 'address'),
    field(venue, 'city'),
    region,
    field(venue, 'country'),
  ];
  return parts.filter(Boolean).join(', ') || undefined;
}

const utc = (wall: string) => DateTime.fromSQL(wall, { zone: 'utc' });

/** A VCALENDAR of the events, in the order given. */
export function renderCalendar(events: EventView[], now: DateTime): string {
  const host = siteHost();
  const calendar = ical({
    name: `Events · ${host}`,
    prodId: { company: host, product: 'cal-events', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
    scale: 'gregorian',
    ttl: 3600,
    // No calendar zone name: the generator would then write DTSTAMP and LAST-MODIFIED in local time.
    timezone: { name: null, generator: vtimezone },
  });
  calendar.x('X-WR-TIMEZONE', tzidOf(siteZone().name) ?? 'UTC');
  const vevents = events.map((e) => calendar.createEvent(eventData(e, now)));
  const zones = [...new Set(vevents.map((v) => v.timezone()).filter((z): z is string => !!z))];

  // ical-generator 10 (the last line that runs on Node 20) folds its finished text with a new
  // TextEncoder per character: seconds of CPU for a few hundred events. So the calendar's own
  // properties come from its toString() without events, and the components it would append (one
  // VTIMEZONE per TZID used, from the same generator, and each VEVENT as the library writes and
  // escapes it) are folded by foldContentLines. All calendar properties then precede the components,
  // as RFC 5545's grammar has it.
  calendar.clear();
  const head = calendar.toString();
  const end = head.lastIndexOf('END:VCALENDAR');
  const components = [
    ...zones.map((tzid) => `${vtimezone(tzid)!.replace(/\r?\n/g, '\r\n').trim()}\r\n`),
    ...vevents.map((v) => v.toString()),
  ];
  return `${head.slice(0, end)}${foldContentLines(components.join(''))}END:VCALENDAR\r\n`;
}

/** What ical-generator needs for one VEVENT. */
function eventData(e: EventView, now: DateTime): ICalEventData {
  const venues = (Array.isArray(e.venue) ? e.venue : [e.venue]).filter(Boolean);
  const venue = venues[0];
  const organizer = e.organizer.find((o) => field(o, 'email'));
  const location = locationText(venue);
  const lat = coordinate(venue, 'geo_lat');
  const lng = coordinate(venue, 'geo_lng');
  const tzid = e.all_day ? undefined : tzidOf(e.timezone ?? '');
  const description = descriptionText(e.description ?? '');
  const categories = (e.categories ?? []).map((c) => c.name).filter((n) => n.trim() !== '');
  return {
    id: eventUid(e.id),
    stamp: now.toUTC(),
    sequence: sequenceOf(e.modified_utc),
    ...(e.all_day
      ? {
          allDay: true,
          // Whole days: the start day and the day after the last one (DTEND is exclusive).
          start: DateTime.fromISO(e.start_date.slice(0, 10), { zone: 'utc' }),
          end: DateTime.fromISO(e.end_date.slice(0, 10), { zone: 'utc' }).plus({ days: 1 }),
        }
      : {
          start: tzid ? utc(e.utc_start_date!).setZone(tzid) : utc(e.utc_start_date!),
          end: tzid ? utc(e.utc_end_date!).setZone(tzid) : utc(e.utc_end_date!),
          timezone: tzid ?? null,
        }),
    summary: e.title,
    ...(description ? { description } : {}),
    ...(location
      ? {
          location: {
            title: location,
            ...(lat !== undefined && lng !== undefined ? { geo: { lat, lon: lng } } : {}),
          },
        }
      : {}),
    url: e.url,
    categories: categories.map((name) => ({ name })),
    ...(organizer
      ? {
          organizer: {
            name: paramText(field(organizer, 'organizer') ?? field(organizer, 'email')!),
            email: field(organizer, 'email')!,
          },
        }
      : {}),
    ...(e.modified_utc ? { lastModified: utc(e.modified_utc) } : {}),
    status: STATUS[e.status] ?? ICalEventStatus.CONFIRMED,
  };
}
