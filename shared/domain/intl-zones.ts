// Time zones and wall times from the platform's Intl, computing what luxon computes (dates.ts), so the
// common date inputs need no time-zone library at a cold start (issue 9). The offset rule, the
// daylight-saving gap and overlap choices (luxon's fixOffset) and the zone names follow luxon's source;
// test/unit/intl-times.test.ts holds the results equal to luxon's across zones and DST changes.

/** A zone that luxon and Intl agree on: a fixed `UTC±H[:MM]` offset or an IANA name. */
export interface IntlZone {
  /** The name luxon gives the zone (`UTC`, `UTC+5:30`, or the IANA name as written). */
  name: string;
  /** Minutes east of UTC at `ts` (epoch ms). */
  offset(ts: number): number;
  /** The short name luxon shows for the zone at `ts` in `locale` (`EST`, `GMT+1`; a fixed zone's name). */
  shortName(ts: number, locale: string): string;
  fixed: boolean;
}

/** `UTC±H[:MM]` as luxon reads it (FixedOffsetZone.parseSpecifier). */
const FIXED = /^utc(?:([+-]\d{1,2})(?::(\d{2}))?)?$/i;
/** Names luxon reads as something other than an IANA zone. */
const NOT_IANA = new Set(['default', 'local', 'system', 'gmt']);

function fixedZone(hours: string | undefined, minutes: string | undefined): IntlZone {
  const h = Number(hours ?? 0);
  const offset = h * 60 + (h < 0 || Object.is(h, -0) ? -1 : 1) * Number(minutes ?? 0);
  const abs = Math.abs(offset);
  const narrow = `${offset >= 0 ? '+' : '-'}${Math.trunc(abs / 60)}${abs % 60 > 0 ? `:${abs % 60}` : ''}`;
  const name = offset === 0 ? 'UTC' : `UTC${narrow}`;
  return { name, offset: () => offset, shortName: () => name, fixed: true };
}

const PARTS: Intl.DateTimeFormatOptions = {
  hour12: false,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  era: 'short',
};

/** The options luxon's parseZoneInfo asks a zone's short name with. */
const NAMED: Intl.DateTimeFormatOptions = {
  timeZoneName: 'short',
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
};

function ianaZone(name: string): IntlZone | undefined {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', { ...PARTS, timeZone: name });
  } catch {
    return undefined; // not a zone Intl knows: luxon's IANAZone is invalid too
  }
  const names = new Map<string, Intl.DateTimeFormat>();
  return {
    name,
    fixed: false,
    offset(ts) {
      const p: Record<string, number> = {};
      let bc = false;
      for (const { type, value } of format.formatToParts(new Date(ts))) {
        if (type === 'era') bc = value === 'BC';
        else if (type !== 'literal') p[type] = parseInt(value, 10);
      }
      const year = bc ? 1 - Math.abs(p.year!) : p.year!;
      const asUtc = localMs({ ...(p as unknown as Fields), year, hour: p.hour === 24 ? 0 : p.hour! });
      const whole = ts - (((ts % 1000) + 1000) % 1000);
      return (asUtc - whole) / 60_000;
    },
    shortName(ts, locale) {
      let f = names.get(locale);
      if (!f) {
        f = new Intl.DateTimeFormat(locale, { ...NAMED, timeZone: name });
        names.set(locale, f);
      }
      return f.formatToParts(new Date(ts)).find((x) => x.type === 'timeZoneName')?.value ?? '';
    },
  };
}

const zones = new Map<string, IntlZone | undefined>();

/**
 * The zone luxon's `Info.normalizeZone` gives for `name` (trimmed), when it is a fixed offset within
 * ±14 h or an IANA name Intl knows; undefined for anything else (luxon decides those).
 */
export function intlZone(name: string): IntlZone | undefined {
  const trimmed = name.trim();
  if (!zones.has(trimmed)) {
    const fixed = FIXED.exec(trimmed);
    let zone: IntlZone | undefined;
    if (fixed) zone = fixedZone(fixed[1], fixed[2]);
    else if (trimmed !== '' && !NOT_IANA.has(trimmed.toLowerCase())) zone = ianaZone(trimmed);
    zones.set(trimmed, zone && zone.fixed && Math.abs(zone.offset(0)) > 14 * 60 ? undefined : zone);
  }
  return zones.get(trimmed);
}

/** Calendar fields of a wall time. */
export interface Fields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond?: number;
}

/** The fields read as if they were UTC (luxon's objToLocalTS). */
export function localMs(f: Fields): number {
  const ms = Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second, f.millisecond ?? 0);
  if (f.year < 0 || f.year >= 100) return ms;
  // Date.UTC reads years 0-99 as 1900-1999: set the year again, as luxon does.
  const d = new Date(ms);
  d.setUTCFullYear(f.year, f.month - 1, f.day);
  return d.getTime();
}

/** The wall fields of `ts` at `offset` minutes (luxon's tsToObj). */
export function fieldsAt(ts: number, offset: number): Required<Fields> {
  const d = new Date(ts + offset * 60_000);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    millisecond: d.getUTCMilliseconds(),
  };
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** Fields as a `Y-m-d H:i:s` wall time (luxon's `yyyy-MM-dd HH:mm:ss`). */
export const wallOf = (f: Fields) =>
  `${pad(f.year, 4)}-${pad(f.month)}-${pad(f.day)} ${pad(f.hour)}:${pad(f.minute)}:${pad(f.second)}`;

/** Locales whose short zone names are the tz abbreviations PHP shows: EST, CET/CEST, BST, AEDT, IST, SAST, JST. */
export const ABBR_LOCALES = ['en-US', 'en-GB', 'en-AU', 'en-IN', 'en-ZA', 'ja-JP'];

/** An instant and the offset it is shown at in its zone (a luxon DateTime's `ts` and `o`). */
export interface ZonedMs {
  ts: number;
  o: number;
}

/**
 * The instant of wall time `local` (ms, fields read as UTC) in `zone`, from a provisional offset
 * `o`: luxon's fixOffset. A time in a spring-forward gap moves forward by the gap; a time that occurs
 * twice keeps the provisional offset when it is one of the two.
 */
export function fromWall(local: number, o: number, zone: IntlZone): ZonedMs {
  let ts = local - o * 60_000;
  const o2 = zone.offset(ts);
  if (o === o2) return { ts, o };
  ts -= (o2 - o) * 60_000;
  const o3 = zone.offset(ts);
  if (o2 === o3) return { ts, o: o2 };
  return { ts: local - Math.min(o2, o3) * 60_000, o: Math.max(o2, o3) };
}

/** The instant of a `Y-m-d H:i:s` UTC wall time, or undefined when it is not one. */
export function utcInstant(wall: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(wall);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number) as number[];
  const ts = localMs({
    year: year!,
    month: month!,
    day: day!,
    hour: hour!,
    minute: minute!,
    second: second!,
  });
  const f = fieldsAt(ts, 0);
  const same =
    f.year === year &&
    f.month === month &&
    f.day === day &&
    f.hour === hour &&
    f.minute === minute &&
    f.second === second;
  return same ? ts : undefined;
}

/** A Date whose UTC fields are the wall time, in an IANA zone Intl knows, of a `Y-m-d H:i:s` UTC time. */
export function wallIn(zoneName: string, utcWall: string): Date {
  const ts = utcInstant(utcWall);
  const zone = intlZone(zoneName);
  if (ts === undefined || !zone) return new Date(Number.NaN);
  return new Date(localMs(fieldsAt(ts, zone.offset(ts))));
}
