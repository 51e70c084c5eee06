import strtotime from 'locutus/php/datetime/strtotime';
import { DateTime, type Zone } from 'luxon';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const monthOf = (name: string) => MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1;
const fullYear = (y: string) => (y.length > 2 ? Number(y) : Number(y) + (Number(y) < 70 ? 2000 : 1900));

/**
 * The calendar dates a text names, as year, month and day, in the forms strtotime would move on to a
 * real date (`2027-02-30` is March 2 to PHP, a 400 here: decisions §9).
 */
function namedDays(s: string): Array<[number, number, number]> {
  const out: Array<[number, number, number]> = [];
  for (const m of s.matchAll(/\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g)) out.push([+m[1]!, +m[2]!, +m[3]!]);
  for (const m of s.matchAll(/\b(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})\b/g))
    out.push([fullYear(m[3]!), +m[1]!, +m[2]!]);
  for (const m of s.matchAll(/\b(\d{1,2})\.(\d{1,2})\.(\d{4}|\d{2})\b/g))
    out.push([fullYear(m[3]!), +m[2]!, +m[1]!]);
  for (const m of s.matchAll(/\b(\d{1,2})(?:st|nd|rd|th)?[ -]([a-z]{3,9})[ -,]*(\d{4})\b/gi))
    if (monthOf(m[2]!) > 0) out.push([+m[3]!, monthOf(m[2]!), +m[1]!]);
  for (const m of s.matchAll(/\b([a-z]{3,9})[ -](\d{1,2})(?:st|nd|rd|th)?,? (\d{4})\b/gi))
    if (monthOf(m[1]!) > 0) out.push([+m[3]!, monthOf(m[1]!), +m[2]!]);
  return out;
}

const realDay = ([year, month, day]: [number, number, number]) =>
  DateTime.fromObject({ year, month, day }, { zone: 'UTC' }).isValid;

/** A Date whose local fields (the process's zone) are `dt`'s wall time: strtotime computes in them. */
const localFrame = (dt: DateTime) =>
  new Date(dt.year, dt.month - 1, dt.day, dt.hour, dt.minute, dt.second, 0);

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const WEEKDAY =
  /\b(next|last|previous|this) (sunday|monday|tuesday|wednesday|thursday|friday|saturday|sun|mon|tue|wed|thu|fri|sat)\b/gi;

/**
 * The phrases locutus answers otherwise than PHP, said in the words it answers as PHP does: PHP's
 * `last X` is the X before today (`X -1 week`; locutus gives today on a Sunday), `this X` is X today
 * or after (bare `X`; locutus skips a Sunday's own day), `next X` the X after today (locutus gives
 * today when today is X). `at` before a time (`tomorrow at 14:30`) is dropped, as WordPress clients
 * send it. `today` is the weekday (0 Sunday) of now in the event's zone.
 */
function asLocutusReads(s: string, today: number): string {
  return s
    .replace(WEEKDAY, (_m, rel: string, day: string) => {
      const name = WEEKDAYS.find((d) => d.startsWith(day.toLowerCase().slice(0, 3)))!;
      const which = rel.toLowerCase();
      if (which === 'last' || which === 'previous') return `${name} -1 week`;
      if (which === 'next' && WEEKDAYS.indexOf(name) === today) return `${name} +1 week`;
      return name;
    })
    .replace(/\bat (?=\d|noon|midnight)/gi, '');
}

/**
 * Whether the text names its own zone or offset (RFC 2822's `+0000`, `GMT`, `EST`): strtotime takes
 * at most two zones, so two more make such a text fail and leave any other one readable.
 */
const namesZone = (s: string, now: number) => strtotime(`${s} +0000 +0000`, now) === false;

/**
 * Words that name a day or a time. strtotime reads a zone alone (`x`, military X; `EST`, `UTC`) as now
 * in that zone; the reference refuses such a text as a date (samples 058, 059), so a text with no digit
 * must name a day or a time with one of these.
 */
const DATE_WORD =
  /\b(now|today|tomorrow|yesterday|midnight|noon|next|last|this|first|ago|week|fortnight|month|year|day|hour|min|sec|mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/i;

/**
 * A date in one of strtotime's forms (locutus' port of PHP's), read in `zone`: relative phrases count
 * from now in that zone and wall times are that zone's; a text that names its offset keeps it, converted
 * to `zone`. Undefined when strtotime does not read it, or when it names a day the calendar lacks.
 */
export function parseRelative(
  input: string,
  zone: Zone,
  now: DateTime = DateTime.now(),
): DateTime | undefined {
  const wallNow = now.setZone(zone);
  const s = asLocutusReads(input.trim().replace(/\s+/g, ' '), wallNow.weekday % 7);
  if (s === '' || !namedDays(s).every(realDay)) return undefined;
  if (!/\d/.test(s) && !DATE_WORD.test(s)) return undefined;
  const moved = offset(s, wallNow);
  if (moved) return moved;
  // Not strtotime's to guess: ISO 8601 (luxon's, dates.ts; an offset it refuses is no date) and
  // numbers of five digits or more (a year past 9999, a timestamp dates.ts did not take).
  if (/^[+-]?\d{4}-\d{1,2}-\d{1,2}t/i.test(s) || /(^|[^@\d])\d{5,}/.test(s)) return undefined;
  const frame = Math.floor(localFrame(wallNow).getTime() / 1000);
  let seconds: number | false;
  try {
    seconds = strtotime(s, frame);
  } catch {
    return undefined;
  }
  if (seconds === false || !Number.isFinite(seconds)) return undefined;
  if (namesZone(s, frame)) return DateTime.fromSeconds(seconds, { zone });
  const local = new Date(seconds * 1000);
  const dt = DateTime.fromObject(
    {
      year: local.getFullYear(),
      month: local.getMonth() + 1,
      day: local.getDate(),
      hour: local.getHours(),
      minute: local.getMinutes(),
      second: local.getSeconds(),
    },
    { zone },
  );
  return dt.isValid ? dt : undefined;
}

const UNIT = {
  sec: 'seconds',
  min: 'minutes',
  hour: 'hours',
  day: 'days',
  week: 'weeks',
  fortnight: 'weeks',
  month: 'months',
  year: 'years',
} as const;

/**
 * One offset from now (`+9000 years`, `-2100 years`, `3 days ago`), counted by luxon: strtotime's
 * arithmetic overflows past year 9999 and gives no date, where the caller must tell "outside the
 * calendar" (rest_date_out_of_range) from "not a date".
 */
function offset(s: string, now: DateTime): DateTime | undefined {
  const m = /^([+-]?\d+) ?(sec|second|min|minute|hour|day|week|fortnight|month|year)s?( ago)?$/i.exec(s);
  if (!m) return undefined;
  const unit = m[2]!
    .toLowerCase()
    .replace(/^second$/, 'sec')
    .replace(/^minute$/, 'min') as keyof typeof UNIT;
  const n = Number(m[1]) * (unit === 'fortnight' ? 2 : 1) * (m[3] ? -1 : 1);
  return now.plus({ [UNIT[unit]]: n });
}
