import { createHash } from 'node:crypto';
import ical, { ICalCalendarMethod, type ICalEventData, ICalEventStatus } from 'ical-generator';
import { tzlib_get_ical_block } from 'timezones-ical-library';
import { config } from '../../../config';
import { plusDays } from '../../../domain/calendar';
import { siteZoneName } from '../../../domain/clock';
import { type WindowQuery, windowAt } from '../../../domain/event-window';
import { intlZone, utcInstant, wallIn } from '../../../domain/intl-zones';
import { withTimeMaths } from '../../../domain/time-maths';
import { descriptionText, foldContentLines, paramText, withoutIcalControls } from '../../../domain/ical-text';
import type { eventIcalQuery } from '../../../schemas/ical';
import type { Infer } from '../../../schemas/infer';
import type { Caller } from '../../common';
import { type EventListQuery, listEvents } from '../../events/list';
import { getEvent } from '../../events';
import { type ExpandSeries, feedVevents, type TimeForm, type Vevent } from './ical-series';
import type { EventView } from '../../events';

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
/** Page size the feed reads the list service with, and how many pages or slices it reads at once. */
const PAGE_SIZE = 50;
const PARALLEL_READS = 4;
/** Events per slice of the window the feed aims at when a window holds more (see eventsFeed). */
export const CHUNK_EVENTS = 100;
const DAY_MS = 86_400_000;
/** Bump when the rendering changes, so the entity tags of unchanged data change with it. */
const FORMAT = 2;
/** SEQUENCE is modified_utc in seconds since this instant (fits 32 bits until 2088). */
const SEQUENCE_EPOCH = Date.UTC(2020, 0, 1) / 1000;

/**
 * start_date / end_date of a feed: those given, else 30 days before now (or before end_date when that is
 * earlier) and 365 days after now (or after start_date when that is later), as days in the site zone.
 */
export function feedWindow(
  q: Pick<IcalQuery, 'start_date' | 'end_date'>,
  now: Date,
): Promise<{ start_date: string | number; end_date: string | number }> {
  return withTimeMaths((maths) => {
    const { zone } = maths.site();
    const local = maths.at(now, zone);
    const day = (m: ReturnType<typeof maths.at>) => maths.wall(m).slice(0, 10);
    const given = (param: 'start_date' | 'end_date') =>
      q[param] === undefined ? undefined : maths.read(param, q[param], zone);
    const start = given('start_date');
    const end = given('end_date');
    const earliest = end !== undefined && maths.ms(end) < maths.ms(local) ? end : local;
    const latest = start !== undefined && maths.ms(start) > maths.ms(local) ? start : local;
    // Calendar days held to the calendar: a feed from 9999-12-01 ends on its last day, not in 10000.
    return {
      start_date: q.start_date ?? plusDays(day(earliest), -FEED_DAYS_BEFORE),
      end_date: q.end_date ?? plusDays(day(latest), FEED_DAYS_AFTER),
    };
  });
}

/**
 * GET /events/ical: every event GET /events would list for these filters, in the window, earliest
 * first, up to the cap. Read with the list service, 50 a page. Every page of the list service reads
 * the candidates up to its end again, so a window with more than CHUNK_EVENTS events is read as
 * consecutive slices of days (see windowSlices), each paged on its own: the reads then grow with the
 * number of events, not with its square.
 */
export async function eventsFeed(
  q: IcalQuery,
  ctx: Caller & { now?: Date },
  declared: Readonly<Record<string, unknown>>,
): Promise<CalendarDocument> {
  const now = ctx.now ?? new Date();
  const { limit: asked, ...given } = q;
  // Only the filters the feed declares (`declared`, its query's properties): other parameters
  // (include, page, …) reach it unvalidated.
  const filters = Object.fromEntries(
    Object.entries(given).filter(([name]) => name in declared),
  ) as typeof given;
  const limit = Math.min(asked ?? config.icalMaxEvents, config.icalMaxEvents);
  const base: EventListQuery = { ...filters, ...(await feedWindow(q, now)), per_page: PAGE_SIZE };
  const read = (query: EventListQuery, page: number) => listEvents({ ...query, page }, { ...ctx, now });

  const first = await read(base, 1);
  const slices =
    first.total > CHUNK_EVENTS && limit > first.items.length
      ? await windowSlices(base, Math.ceil(first.total / CHUNK_EVENTS), now)
      : [{}];
  const found: EventView[][] = [];
  let count = 0;
  for (let from = 0; from < slices.length && count < limit; from += PARALLEL_READS) {
    const batch = slices.slice(from, from + PARALLEL_READS).map((slice) => {
      const query = { ...base, ...slice };
      return allPages((page) => read(query, page), limit, slices.length === 1 ? first : undefined);
    });
    for (const items of await Promise.all(batch)) {
      found.push(items);
      count += items.length;
    }
  }
  // Slices share their boundary day, and pages read at different moments may overlap when an event is
  // added meanwhile: each event once, in list order (slices are in order of start).
  const seen = new Set<number>();
  const events = found
    .flat()
    .filter((e) => !seen.has(e.id) && seen.add(e.id))
    .slice(0, limit);
  // The recurrence library (and its Temporal polyfill) loads only for a feed with a series in it.
  const expand = events.some((e) => (e as { series_id?: number | null }).series_id != null)
    ? (await import('../../../domain/recurrence')).expandSeries
    : undefined;
  return calendarOf(events, now, { kind: 'feed', query: { ...base, limit }, user: ctx.user }, expand);
}

type ListPage = Awaited<ReturnType<typeof listEvents>>;

/** The items of every page of one list query, up to `limit`, reading PARALLEL_READS pages at a time. */
async function allPages(
  read: (page: number) => Promise<ListPage>,
  limit: number,
  first?: ListPage,
): Promise<EventView[]> {
  const one = first ?? (await read(1));
  const pages = Math.ceil(Math.min(one.total, limit) / one.paging.perPage);
  const items = [...one.items];
  for (let from = 2; from <= pages; from += PARALLEL_READS) {
    const batch = [];
    for (let page = from; page < from + PARALLEL_READS && page <= pages; page++) batch.push(read(page));
    for (const p of await Promise.all(batch)) items.push(...p.items);
  }
  return items;
}

/**
 * Splits the window of a list query into `count` slices of consecutive days by event start (fewer when
 * the window has fewer days): each slice narrows start_date and starts_before, in the query's own mode.
 * With whole days (strict_dates false), `starts_before=D` keeps starts before the end of day D and the
 * next slice's `start_date=D` starts at its beginning: neighbours share day D, and nothing falls between
 * them. With strict dates both mean D 00:00:00, so the slices meet exactly. The first slice keeps the
 * query's start_date, the last its starts_before; every other bound (ends, starts_after) stays as it is.
 */
export async function windowSlices(
  q: WindowQuery,
  count: number,
  now: Date,
): Promise<Array<Pick<EventListQuery, 'start_date' | 'starts_before'>>> {
  const b = await windowAt(q, now);
  const pick = (values: Array<string | undefined>, earliest: boolean) =>
    values.filter((v): v is string => v !== undefined).reduce((a, v) => ((earliest ? v < a : v > a) ? v : a));
  // Whole days in UTC: calendar arithmetic on the bounds' dates, no zone involved.
  const low = dayOf(pick([b.startMin, b.startAfter], false)).getTime();
  const high = dayOf(pick([b.startBefore, b.endMax, b.endBefore], true)).getTime();
  const days = Math.floor((high - low) / DAY_MS) + 1;
  const n = Math.min(count, days);
  if (Number.isNaN(low) || Number.isNaN(high) || n <= 1) return [{}];
  const cut = (i: number) => new Date(low + Math.round((i * days) / n) * DAY_MS).toISOString().slice(0, 10);
  const boundary = (day: string) => `${day} ${q.strict_dates === true ? '00:00:00' : '23:59:59'}`;
  return Array.from({ length: n }, (_, i) => {
    const next = i < n - 1 ? cut(i + 1) : undefined;
    const userFirst = next === undefined || (b.startBefore !== undefined && b.startBefore <= boundary(next));
    return {
      ...(i > 0 ? { start_date: cut(i) } : {}),
      ...(userFirst ? {} : { starts_before: next }),
    };
  });
}

/** GET /events/{id}/ical: the event as GET /events/{id} shows it (same 403 / 404), in a VCALENDAR. */
export async function eventCalendar(id: number, ctx: Caller & { now?: Date }): Promise<CalendarDocument> {
  const event = await getEvent({ id }, ctx);
  return calendarOf([event], ctx.now ?? new Date(), { kind: 'event', id, user: ctx.user });
}

function calendarOf(
  events: EventView[],
  now: Date,
  request: object,
  expand?: ExpandSeries,
): CalendarDocument {
  const hash = createHash('sha256')
    .update(JSON.stringify({ format: FORMAT, site: [config.siteUrl, config.siteTimezone], request }))
    .update(JSON.stringify(events))
    .digest('base64url')
    .slice(0, 32);
  const newest = events
    .flatMap((e) => [e.modified_utc, ...linked(e.venue), ...linked(e.organizer)].map((m) => m ?? ''))
    .reduce((a, b) => (b > a ? b : a), '');
  const modified = newest ? utcInstant(newest) : undefined;
  return {
    body: renderCalendar(events, now, expand),
    etag: `W/"${hash}"`,
    lastModified: modified === undefined ? undefined : new Date(modified).toUTCString(),
  };

  function linked(v: unknown): Array<string | undefined> {
    return (Array.isArray(v) ? v : [v]).map((r) => field(r, 'modified_utc'));
  }
}

// ---------------------------------------------------------------------------------------------------
// Rendering

/** UTC and fixed offsets (`Etc/GMT+5`, like `UTC+5` events) are written in UTC instead. */
const UNIVERSAL = /^(Etc\/|GMT|UTC|UCT|Zulu|Universal|Greenwich)/;

/** TZID for an event's zone, or undefined to write its times in UTC. */
export function tzidOf(zone: string): string | undefined {
  return !UNIVERSAL.test(zone) && intlZone(zone) && vtimezone(zone) !== null ? zone : undefined;
}

/**
 * The VTIMEZONE of each zone asked, from the library's compiled-in tzdata (null: it has none), looked
 * up once. Not the library's list of every zone: building it costs about 3 ms of a cold start.
 */
const blocks = new Map<string, string | null>();
function vtimezone(tzid: string): string | null {
  let block = blocks.get(tzid);
  if (block === undefined) {
    const found = tzlib_get_ical_block(tzid);
    block = Array.isArray(found) ? (found[0] ?? null) : null;
    blocks.set(tzid, block);
  }
  return block;
}

const siteHost = () => new URL(config.siteUrl).hostname;

/** The UID of an event: never changes, whatever is edited (the slug included). */
export const eventUid = (id: number) => `event-${id}@${siteHost()}`;
/**
 * The UID of a series in the feed (its ID is its first occurrence's): not that occurrence's own, which
 * its single calendar (GET /events/{id}/ical) keeps, so importing it never replaces the series.
 */
export const seriesUid = (id: number) => `series-${id}@${siteHost()}`;

/** SEQUENCE: grows with every update, as modified_utc does (whole seconds since 2020). */
export function sequenceOf(modifiedUtc: string | undefined): number {
  const at = modifiedUtc ? utcInstant(modifiedUtc) : undefined;
  return at === undefined ? 0 : Math.max(0, Math.floor(at / 1000 - SEQUENCE_EPOCH));
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

const utc = (wall: string) => new Date(utcInstant(wall) ?? Number.NaN);
/** A whole day of the calendar, as the generator writes a DATE: midnight UTC of `Y-m-d`. */
const dayOf = (wall: string, plusDays = 0) =>
  new Date(Date.parse(`${wall.slice(0, 10)}T00:00:00Z`) + plusDays * DAY_MS);

/** How an event's times are written: dates, wall times of its TZID, or UTC. */
function timeForm(e: EventView): TimeForm {
  if (e.all_day) return { kind: 'date' };
  // ical-generator pads a TZID'd local year to two digits only: before year 1000, times go in UTC.
  const tzid = e.start_date < '1000' ? undefined : tzidOf(e.timezone ?? '');
  return tzid ? { kind: 'tzid', tzid } : { kind: 'utc' };
}

/**
 * A VCALENDAR of the events, in the order given. With `expand` (the feed), the occurrences of a series
 * are written as the series (event-ical-series.ts); without, each event is a VEVENT of its own.
 */
export function renderCalendar(events: EventView[], now: Date, expand?: ExpandSeries): string {
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
  calendar.x('X-WR-TIMEZONE', tzidOf(siteZoneName()) ?? 'UTC');
  const planned: Vevent[] = expand
    ? feedVevents(events, { form: timeForm, uid: seriesUid, expand })
    : events.map((event) => ({ event, lines: [] }));
  const vevents = planned.map((p) => calendar.createEvent(eventData(p.event, now, p.uid)));
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
    // The series' lines go in as they are written (ical-generator's RRULE model has no RDATE).
    ...vevents.map((v, i) =>
      v
        .toString()
        .replace(
          /END:VEVENT\r\n$/,
          () => `${planned[i]!.lines.map((l) => `${l}\r\n`).join('')}END:VEVENT\r\n`,
        ),
    ),
  ];
  return `${head.slice(0, end)}${foldContentLines(withoutIcalControls(components.join('')))}END:VCALENDAR\r\n`;
}

/** What ical-generator needs for one VEVENT. */
function eventData(e: EventView, now: Date, uid = eventUid(e.id)): ICalEventData {
  const venues = (Array.isArray(e.venue) ? e.venue : [e.venue]).filter(Boolean);
  const venue = venues[0];
  const organizer = e.organizer.find((o) => field(o, 'email'));
  const location = locationText(venue);
  const lat = coordinate(venue, 'geo_lat');
  const lng = coordinate(venue, 'geo_lng');
  const form = timeForm(e);
  const tzid = form.kind === 'tzid' ? form.tzid : undefined;
  const description = descriptionText(e.description ?? '');
  const categories = (e.categories ?? []).map((c) => c.name).filter((n) => n.trim() !== '');
  return {
    id: uid,
    stamp: now,
    sequence: sequenceOf(e.modified_utc),
    ...(e.all_day
      ? {
          allDay: true,
          // Whole days: the start day and the day after the last one (DTEND is exclusive).
          start: dayOf(e.start_date),
          end: dayOf(e.end_date, 1),
        }
      : {
          // With a TZID the generator writes a Date's UTC fields as the local time: give it the wall
          // time in the zone (from the UTC instant, as the zone's rules have it) in those fields.
          start: tzid ? wallIn(tzid, e.utc_start_date!) : utc(e.utc_start_date!),
          end: tzid ? wallIn(tzid, e.utc_end_date!) : utc(e.utc_end_date!),
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
