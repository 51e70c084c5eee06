import { DateTime, Info, type Zone } from 'luxon';
import { config } from '../config';
import { inCalendar, outsideCalendar } from './calendar';
import { invalidParam } from './errors';
import { ABBR_LOCALES } from './intl-zones';
import { notADate } from './date-forms';
import { parseRelative } from './relative-dates';
import { tzAbbr } from './zone-abbr';

/** Wall-time format of every date in responses: `Y-m-d H:i:s`, no zone suffix (reference §2.5). */
export const WALL = 'yyyy-MM-dd HH:mm:ss';

/** An IANA zone or `UTC±N[:MM]`; undefined when the name is not a time zone. */
export function resolveZone(name: string): Zone | undefined {
  const trimmed = name.trim();
  if (trimmed === '') return undefined;
  const zone = Info.normalizeZone(/^utc$/i.test(trimmed) ? 'UTC' : trimmed);
  if (!zone?.isValid) return undefined;
  // Real offsets run from UTC-12 to UTC+14; luxon would take any UTC±N.
  if (zone.isUniversal && Math.abs(zone.offset(0)) > 14 * 60) return undefined;
  return zone;
}

export const siteZone = (): Zone => resolveZone(config.siteTimezone) ?? Info.normalizeZone('UTC')!;

const SQL_LIKE = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/**
 * Reads the date inputs the contract accepts: `YYYY-MM-DD HH:MM:SS`, `YYYY-MM-DD HH:MM`, `YYYY-MM-DD`,
 * ISO 8601 with or without an offset, Unix timestamps, and the forms of PHP's strtotime that clients
 * of the reference send (relative-dates.ts: m/d/Y, d.m.Y, RFC 2822, relative phrases). Wall times are
 * read in `zone`; an explicit offset wins and the result is converted to `zone`. Returns undefined
 * when the input is not a date, or names a day the calendar lacks (decisions §9).
 */
export function parseDate(input: unknown, zone: Zone): DateTime | undefined {
  let dt: DateTime | undefined;
  if (typeof input === 'number' && Number.isFinite(input)) dt = DateTime.fromSeconds(input, { zone });
  else if (typeof input === 'string') {
    const s = input.trim();
    const m = SQL_LIKE.exec(s);
    if (/^\d{9,11}$/.test(s)) dt = DateTime.fromSeconds(Number(s), { zone });
    else if (m) dt = DateTime.fromSQL(`${m[1]} ${m[2] ?? '00'}:${m[3] ?? '00'}:${m[4] ?? '00'}`, { zone });
    else {
      dt = DateTime.fromISO(s, { zone, setZone: false });
      if (!dt.isValid) dt = parseRelative(s, zone);
    }
  }
  return dt?.isValid ? dt : undefined;
}

export const wall = (dt: DateTime) => dt.toFormat(WALL);
export const utcWall = (dt: DateTime) => dt.toUTC().toFormat(WALL);

/** Short zone name as the reference shows it: `EST`, `CET`, `GMT`, `-03`, `+0545`, `UTC`, `UTC+2`. */
export function zoneAbbr(dt: DateTime): string {
  const tz = dt.zone.isUniversal ? undefined : tzAbbr(dt.zoneName ?? '', dt.offset);
  if (tz) return tz;
  // en-US alone names only American zones (Berlin would read GMT+1): ask the locales that name the others.
  for (const locale of ABBR_LOCALES) {
    const name = dt.setLocale(locale).offsetNameShort ?? '';
    if (/^[A-Z]{2,5}$/.test(name)) return name;
  }
  return dt.toFormat('ZZZZ').replace(/^GMT/, 'UTC');
}

/**
 * A date parameter read in `zone`, or a 400 naming it: with the formats it accepts when it is no date,
 * with the calendar's range (calendar.ts) when it is one outside it (`+99999 years`, `0000-01-01`).
 */
export function readDateParam(param: string, value: unknown, zone: Zone): DateTime {
  const dt = parseDate(value, zone);
  if (!dt) throw invalidParam(param, notADate(param), 'rest_invalid_date');
  if (!inCalendar(wall(dt))) throw outsideCalendar(param);
  return dt;
}
