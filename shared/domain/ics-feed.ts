import ICAL from 'ical.js';
import { DateTime, IANAZone } from 'luxon';
import { findIana } from 'windows-iana';
import { invalidParam } from './errors';
import { compactWall } from './wall-time';

/**
 * Reads an iCalendar feed (RFC 5545, as Google Calendar, Outlook and Apple Calendar export it) into
 * event bodies of this API, with Mozilla's ical.js. Times keep their zone: a TZID that is an IANA name
 * (Google, Apple) or a Windows name (Outlook's `Pacific Standard Time`, mapped with windows-iana) is the
 * event's `timezone` with the wall time as written; UTC times are put in the calendar's X-WR-TIMEZONE
 * (Google writes events so), else UTC; floating times and dates take X-WR-TIMEZONE, else the site zone.
 */

/** What POST /events is sent for one VEVENT (import options added by the caller). */
export interface FeedEventBody {
  title: string;
  description: string;
  start_date: string;
  end_date: string;
  timezone: string | null;
  all_day: boolean;
  venue: { venue: string } | null;
  categories: string[];
  website: string;
  recurrence?: string[];
}

/** A RECURRENCE-ID override of one occurrence of a series. */
export interface FeedOverride {
  /** The occurrence's original start, as a wall time of the series' zone (`Y-m-d H:i:s`, `Y-m-d`). */
  occurrence: string;
  body: FeedEventBody;
  cancelled: boolean;
}

export interface FeedItem {
  uid: string;
  /** Line of its BEGIN:VEVENT in the feed (1-based). */
  line: number;
  body: FeedEventBody;
  overrides: FeedOverride[];
}

export interface FeedSkip {
  line: number;
  uid?: string;
  reason: string;
}

/** A content line: name, parameters (quoted values may hold `:` and `;`), a colon. */
const CONTENT_LINE = /^[A-Za-z0-9-]+(?:;[A-Za-z0-9-]+=(?:"[^"]*"|[^";:,]*)(?:,(?:"[^"]*"|[^";:,]*))*)*:/;

interface Line {
  n: number;
  text: string;
}

/** Unfolded content lines with the number of the physical line each starts on; blank lines dropped. */
function unfold(text: string): Line[] {
  const out: Line[] = [];
  text
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\n|\r/)
    .forEach((raw, i) => {
      if ((raw.startsWith(' ') || raw.startsWith('\t')) && out.length) out.at(-1)!.text += raw.slice(1);
      else if (raw.trim() !== '') out.push({ n: i + 1, text: raw });
    });
  return out;
}

const malformed = (line: Line | undefined, why: string) =>
  invalidParam(
    'calendar',
    line
      ? `The feed is not iCalendar: line ${line.n} (${JSON.stringify(line.text.slice(0, 80))}) ${why}.`
      : `The feed is not iCalendar: ${why}.`,
  );

/**
 * Checks the feed's structure line by line (ical.js says what is wrong, not where), so that a 400
 * names the first bad line; answers the line numbers of the calendar's VEVENTs, in order.
 */
function checkStructure(lines: Line[]): number[] {
  if (lines[0]?.text.toUpperCase() !== 'BEGIN:VCALENDAR')
    throw malformed(lines[0], lines[0] ? 'should be BEGIN:VCALENDAR' : 'it is empty');
  const open: string[] = [];
  const vevents: number[] = [];
  for (const line of lines) {
    if (!CONTENT_LINE.test(line.text)) throw malformed(line, 'is not a content line (NAME;PARAMS:VALUE)');
    const [, verb, what] = /^(BEGIN|END):(.*)$/i.exec(line.text) ?? [];
    if (verb?.toUpperCase() === 'BEGIN') {
      if (open.length === 1 && what!.toUpperCase() === 'VEVENT') vevents.push(line.n);
      open.push(what!.toUpperCase());
    } else if (verb) {
      if (open.at(-1) !== what!.toUpperCase())
        throw malformed(line, `ends ${what} where ${open.at(-1) ?? 'nothing'} is open`);
      open.pop();
      if (!open.length && line !== lines.at(-1))
        throw malformed(lines[lines.indexOf(line) + 1], 'follows END:VCALENDAR');
    }
  }
  if (open.length) throw malformed(lines.at(-1), `leaves ${open.at(-1)} open`);
  return vevents;
}

/** The IANA zone a TZID names (an IANA name, or a Windows one as Outlook writes), if any. */
function ianaOf(tzid: string | undefined): string | undefined {
  if (!tzid) return undefined;
  const name = tzid.replace(/^\/+/, '');
  if (IANAZone.isValidZone(name)) return name;
  const mapped = findIana(name)?.[0];
  return mapped && IANAZone.isValidZone(mapped) ? mapped : undefined;
}

const isUtc = (t: ICAL.Time) => t.zone === ICAL.Timezone.utcTimezone;
const fields = (t: ICAL.Time) => ({
  year: t.year,
  month: t.month,
  day: t.day,
  hour: t.hour,
  minute: t.minute,
  second: t.second,
});
const WALL = 'yyyy-MM-dd HH:mm:ss';

/** A property's time as a wall time of `zone` (null: floating, written as it is). */
function wallIn(t: ICAL.Time, tzid: string | undefined, zone: string | null): string {
  if (t.isDate) return t.toString().slice(0, 10);
  const own = ianaOf(tzid);
  let at: DateTime | undefined;
  if (isUtc(t)) at = DateTime.fromSeconds(t.toUnixTime(), { zone: 'UTC' });
  else if (own) at = DateTime.fromObject(fields(t), { zone: own });
  // A TZID of no known zone: its VTIMEZONE (registered while the feed is read) gives the instant.
  else if (tzid && t.zone && t.zone !== ICAL.Timezone.localTimezone)
    at = DateTime.fromSeconds(t.toUnixTime(), { zone: 'UTC' });
  if (!at || !zone || own === zone) return DateTime.fromObject(fields(t)).toFormat(WALL);
  return at.setZone(zone).toFormat(WALL);
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const httpUrl = (s: string) => (/^https?:\/\/\S+$/i.test(s) ? s : '');

/** Every value of every such property (CATEGORIES may repeat, each a comma-separated list). */
const valuesOf = (v: ICAL.Component, name: string) =>
  v
    .getAllProperties(name)
    .flatMap((p) => p.getValues())
    .map((x) => String(x).trim())
    .filter(Boolean);

/** RDATE or EXDATE lines rewritten in the event's zone, so the TZIDs the service sees are IANA names. */
function dateLines(v: ICAL.Component, name: 'rdate' | 'exdate', zone: string | null, allDay: boolean) {
  return v.getAllProperties(name).map((p) => {
    const walls = p.getValues().map((t) => wallIn(t as ICAL.Time, p.getParameter('tzid') as string, zone));
    const compact = walls.map(compactWall);
    const head = allDay
      ? `${name.toUpperCase()};VALUE=DATE`
      : zone
        ? `${name.toUpperCase()};TZID=${zone}`
        : name.toUpperCase();
    return `${head}:${compact.join(',')}`;
  });
}

const isMidnight = (t: ICAL.Time) => t.hour === 0 && t.minute === 0 && t.second === 0;
const dayOf = (t: ICAL.Time) => t.toString().slice(0, 10);

/**
 * The reference plugin's export writes an all-day event as date-times, 00:00:00 to 23:59:59 (in
 * TZID=UTC), or spanning whole days: read, in its feeds only, as the days they cover. Recurring events
 * are left as they are.
 */
function pluginAllDay(v: ICAL.Component, start: ICAL.Time, end: ICAL.Time | undefined) {
  if (!end || start.isDate || end.isDate || v.hasProperty('rrule') || !isMidnight(start)) return undefined;
  const lastSecond = end.hour === 23 && end.minute === 59 && end.second === 59;
  if (lastSecond && dayOf(end) >= dayOf(start)) return { first: dayOf(start), last: dayOf(end) };
  if (isMidnight(end) && dayOf(end) > dayOf(start))
    return { first: dayOf(start), last: DateTime.fromISO(dayOf(end)).minus({ days: 1 }).toISODate()! };
  return undefined;
}

/** One VEVENT as an event body; throws (with the reason) when it cannot be one. */
function bodyOf(
  v: ICAL.Component,
  calendarZone: string | null,
  plugin = { feed: false, trustLocation: true },
): FeedEventBody {
  const dtstart = v.getFirstProperty('dtstart');
  const start = dtstart?.getFirstValue() as ICAL.Time | undefined;
  if (!start || !(start instanceof ICAL.Time)) throw new Error('it has no DTSTART');
  const tzid = dtstart!.getParameter('tzid') as string | undefined;
  const allDay = start.isDate;
  const zone = allDay
    ? calendarZone
    : (ianaOf(tzid) ?? calendarZone ?? (isUtc(start) || tzid ? 'UTC' : null));
  const dtend = v.getFirstProperty('dtend');
  let end = dtend?.getFirstValue() as ICAL.Time | undefined;
  let endTzid = dtend?.getParameter('tzid') as string | undefined;
  if (!end) {
    const duration = v.getFirstPropertyValue('duration') as ICAL.Duration | null;
    end = start.clone();
    if (duration) end.addDuration(duration);
    else if (allDay) end.adjust(1, 0, 0, 0);
    endTzid = tzid;
  }
  if (end.isDate !== allDay) throw new Error('DTSTART and DTEND are not both dates or both date-times');
  const days = plugin.feed && dtend ? pluginAllDay(v, start, end) : undefined;
  let endWall = days ? days.last : wallIn(end, endTzid, zone);
  const startWall = days ? days.first : wallIn(start, tzid, zone);
  if (allDay) {
    // DTEND of a date is the day after the last one (RFC 5545 §3.6.1).
    const last = DateTime.fromISO(endWall).minus({ days: 1 }).toISODate()!;
    endWall = last > startWall ? last : startWall;
  } else if (endWall < startWall) throw new Error('DTEND is before DTSTART');
  const recurrence = v.hasProperty('rrule')
    ? [
        ...v.getAllProperties('rrule').map((p) => `RRULE:${p.getFirstValue()!.toString()}`),
        ...dateLines(v, 'rdate', zone, allDay),
        ...dateLines(v, 'exdate', zone, allDay),
      ]
    : undefined;
  const description = String(v.getFirstPropertyValue('description') ?? '').trim();
  const location = String(v.getFirstPropertyValue('location') ?? '').trim();
  return {
    title: String(v.getFirstPropertyValue('summary') ?? '').trim() || '(No title)',
    description: escapeHtml(description).replace(/\r?\n/g, '<br>\n'),
    start_date: startWall,
    end_date: endWall,
    timezone: days ? calendarZone : zone,
    all_day: allDay || days !== undefined,
    venue: location && plugin.trustLocation ? { venue: location.slice(0, 200) } : null,
    categories: valuesOf(v, 'categories'),
    website: httpUrl(String(v.getFirstPropertyValue('url') ?? '').trim()),
    ...(recurrence ? { recurrence } : {}),
  };
}

const cancelled = (v: ICAL.Component) =>
  String(v.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED';

/**
 * The feed's events, one per UID, each RECURRENCE-ID override under its series; a VEVENT that cannot be
 * read is in `skipped` with its line and why, the others are read. A feed that is not iCalendar at all
 * is a 400 naming its first bad line. Cancelled events are left out (a re-sync then trashes them).
 */
export function readFeed(text: string): { items: FeedItem[]; skipped: FeedSkip[] } {
  const lines = checkStructure(unfold(text));
  let root: ICAL.Component;
  try {
    root = new ICAL.Component(ICAL.parse(text));
  } catch (e) {
    throw malformed(undefined, (e as Error).message);
  }
  if (root.name !== 'vcalendar') throw malformed(undefined, 'it is not a VCALENDAR');
  const registered: string[] = [];
  try {
    for (const tz of root.getAllSubcomponents('vtimezone')) {
      const id = String(tz.getFirstPropertyValue('tzid') ?? '');
      if (id && !ICAL.TimezoneService.has(id)) {
        ICAL.TimezoneService.register(tz);
        registered.push(id);
      }
    }
    const x = String(root.getFirstPropertyValue('x-wr-timezone') ?? '');
    const calendarZone = ianaOf(x) ?? null;
    const plugin = /ECPv|The Events Calendar/i.test(String(root.getFirstPropertyValue('prodid') ?? ''));
    return readEvents(root.getAllSubcomponents('vevent'), lines, calendarZone, plugin);
  } finally {
    for (const id of registered) ICAL.TimezoneService.remove(id);
  }
}

/**
 * The reference plugin's export may carry the previous event's LOCATION on an event without a venue.
 * From its feeds, a LOCATION equal to the previous VEVENT's is trusted only when GEO is equal too (the
 * same venue, coordinates included); otherwise the event comes without a venue (docs/import-export.md).
 */
function locationTrust(vevents: ICAL.Component[], plugin: boolean): boolean[] {
  const prop = (v: ICAL.Component | undefined, name: string) =>
    String(v?.getFirstPropertyValue(name) ?? '').trim();
  return vevents.map((v, i) => {
    const before = vevents[i - 1];
    if (!plugin || !before || !prop(v, 'location') || prop(v, 'location') !== prop(before, 'location'))
      return true;
    return prop(v, 'geo') !== '' && prop(v, 'geo') === prop(before, 'geo');
  });
}

function readEvents(vevents: ICAL.Component[], lines: number[], calendarZone: string | null, plugin = false) {
  const items = new Map<string, FeedItem>();
  const skipped: FeedSkip[] = [];
  const overrides: Array<{ v: ICAL.Component; line: number; uid: string }> = [];
  const trusted = locationTrust(vevents, plugin);
  vevents.forEach((v, i) => {
    const line = lines[i] ?? 0;
    const uid = String(v.getFirstPropertyValue('uid') ?? '').trim();
    try {
      if (!uid) throw new Error('it has no UID');
      if (v.hasProperty('recurrence-id')) return overrides.push({ v, line, uid });
      if (items.has(uid)) throw new Error(`UID ${uid} appears twice`);
      if (cancelled(v)) return;
      items.set(uid, {
        uid,
        line,
        body: bodyOf(v, calendarZone, { feed: plugin, trustLocation: trusted[i]! }),
        overrides: [],
      });
    } catch (e) {
      skipped.push({ line, ...(uid ? { uid } : {}), reason: `line ${line}: ${(e as Error).message}` });
    }
  });
  for (const { v, line, uid } of overrides) {
    const series = items.get(uid);
    try {
      if (!series?.body.recurrence)
        throw new Error(`RECURRENCE-ID of UID ${uid}, which is no recurring event here`);
      const rid = v.getFirstProperty('recurrence-id')!;
      const at = rid.getFirstValue() as ICAL.Time;
      const occurrence = wallIn(at, rid.getParameter('tzid') as string | undefined, series.body.timezone);
      series.overrides.push({
        occurrence,
        body: cancelled(v) ? series.body : bodyOf(v, calendarZone),
        cancelled: cancelled(v),
      });
    } catch (e) {
      skipped.push({ line, uid, reason: `line ${line}: ${(e as Error).message}` });
    }
  }
  return { items: [...items.values()], skipped };
}
