import { RRuleTemporal } from 'rrule-temporal';
import { toText } from 'rrule-temporal/totext';
import { invalidParam } from './errors';
import { type LineTime, readRecurrenceLines, type Rule } from './recurrence-lines';
import type { TimeMaths } from './time-maths';
import { wallDiff, wallMs, wallPlus } from './wall-time';

/**
 * A series' occurrences from its `recurrence` lines, in the event's wall time: 19:00 stays 19:00 across
 * daylight-saving changes because the rule is expanded on wall times ("floating": rrule-temporal in
 * UTC, where no hour is skipped or repeated) and only each occurrence's wall time is placed in the
 * event's zone afterwards, as a single event's is. The expansion is rrule-temporal's, DTSTART counted as
 * the first occurrence (RFC 5545 §3.3.10); this module adds RDATEs, removes EXDATEs and bounds the work.
 */

/** At most this many occurrences within the horizon (issue 27); more is a 400. */
export const MAX_OCCURRENCES = 1000;
/**
 * Recurrence periods (days, weeks, months or years) the library may step through to find a rule's
 * first date: enough for a daily rule matching once in four years (February 29), while one that never
 * matches (`BYMONTH=2;BYMONTHDAY=30`) fails in a fraction of a second instead of searching to 9999.
 */
const PROBE_PERIODS = 5000;
/** And to expand it up to the horizon: 55 years of days. */
const SPAN_PERIODS = 20_000;

export interface SeriesTimes {
  /** Wall times in the event's zone, `Y-m-d H:i:s`. */
  start: string;
  end: string;
  allDay: boolean;
}

export type Occurrence = Pick<SeriesTimes, 'start' | 'end'>;

export interface Series {
  /** Every occurrence starting at or before the horizon, in order, the first at the series' start. */
  occurrences: Occurrence[];
  /** False when the rule goes on past the horizon (no COUNT or UNTIL ending it before). */
  ended: boolean;
  text: string;
}

const bad = (reason: string): never => {
  throw invalidParam('recurrence', reason, 'rest_invalid_recurrence');
};

/** A wall time as the library's date-time input, in UTC (a floating time). */
const zoned = (wall: string) => ({
  timeZoneId: 'UTC',
  toString: () => `${wall.replace(' ', 'T')}+00:00[UTC]`,
});
const wallOfZoned = (d: { toString(): string }) => String(d).slice(0, 19).replace('T', ' ');

/** A line's date or date-time as a wall time of the event's zone (a date alone: at `timeOfDay`). */
function eventWall<Z, M>(maths: TimeMaths<Z, M>, zone: Z, t: LineTime, timeOfDay: string): string {
  if (t.date) return `${t.wall} ${timeOfDay}`;
  if (t.utc) return maths.wall(maths.at(new Date(wallMs(t.wall)), zone));
  if (!t.tzid) return t.wall;
  const other = maths.zone(t.tzid) ?? bad(`TZID=${t.tzid} is not an IANA time zone.`);
  return maths.wall(maths.at(new Date(maths.ms(maths.read('recurrence', t.wall, other))), zone));
}

function ruleOf(rule: Rule, start: string, until: string | undefined, probe = false) {
  return new RRuleTemporal({
    tzid: 'UTC',
    dtstart: zoned(start),
    includeDtstart: !probe,
    maxIterations: probe ? PROBE_PERIODS : SPAN_PERIODS,
    freq: rule.freq,
    interval: rule.interval,
    ...(rule.count ? { count: rule.count } : {}),
    ...(until ? { until: zoned(until) } : {}),
    ...(rule.byDay ? { byDay: rule.byDay.map((d) => `${d.nth ?? ''}${d.day}`) } : {}),
    ...(rule.byMonthDay ? { byMonthDay: rule.byMonthDay } : {}),
    ...(rule.byMonth ? { byMonth: rule.byMonth } : {}),
    ...(rule.bySetPos ? { bySetPos: rule.bySetPos } : {}),
    ...(rule.wkst ? { wkst: rule.wkst } : {}),
  });
}

/** The library's answer, or `fallback` when it stepped through more periods than it was allowed. */
function bounded<T>(fn: () => T, fallback: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof Error && /maximum (iterations|candidate)/i.test(e.message)) return fallback();
    throw e;
  }
}

/**
 * Reads and expands a series up to `horizon` (a wall time of the event's zone). A 400 naming
 * `recurrence` for lines this service does not take, an UNTIL before the start, a rule that yields no
 * date, or more than MAX_OCCURRENCES occurrences within the horizon.
 */
export function expandSeries<Z, M>(
  maths: TimeMaths<Z, M>,
  zone: Z,
  lines: readonly string[],
  times: SeriesTimes,
  horizon: string,
): Series {
  const read = readRecurrenceLines(lines);
  const length = wallDiff(times.end, times.start);
  const timeOfDay = times.start.slice(11);
  // An all-day series recurs by date: its dates compared as days, whatever time a line gives.
  const key = (wall: string) => (times.allDay ? wall.slice(0, 10) : wall);
  const at = (t: LineTime) => {
    const wall = eventWall(maths, zone, t, timeOfDay);
    return times.allDay ? `${wall.slice(0, 10)} ${timeOfDay}` : wall;
  };

  const rule = read.rule;
  let until: string | undefined;
  if (rule?.until) {
    // A date UNTIL takes in its whole day; a date-time one is read like any other line's time.
    until = rule.until.date ? `${rule.until.wall} 23:59:59` : at(rule.until);
    if (until < times.start)
      bad(
        `RRULE UNTIL ${rule.until.wall} is before the event's start (${times.start}): end the series later.`,
      );
  }
  const starts = new Set<string>([times.start]);
  const tooMany = (): never =>
    bad(
      `The series has more than ${MAX_OCCURRENCES} events before ${horizon.slice(0, 10)}: give it a COUNT or UNTIL, or a longer INTERVAL.`,
    );
  let open = false;
  if (rule) {
    const none = () => bad('The RRULE yields no date: check its UNTIL, BYMONTH, BYMONTHDAY and BYDAY parts.');
    // The start is always an occurrence, but a rule that yields no date of its own is a mistake.
    if (!bounded(() => ruleOf(rule, times.start, until, true).next(zoned(times.start), true), none)) none();
    const r = ruleOf(rule, times.start, until);
    const found = bounded(() => r.between(zoned(times.start), zoned(horizon), true), tooMany);
    if (found.length > MAX_OCCURRENCES) tooMany();
    for (const d of found) starts.add(wallOfZoned(d));
    // Dates past the horizon are still to come, to be added by the daily extension.
    open = (!rule.count || found.length < rule.count) && (!until || until > horizon);
  }
  for (const t of read.rdates) {
    const wall = at(t);
    if (wall >= times.start && wall <= horizon) starts.add(wall);
  }
  const excluded = new Set(read.exdates.map((t) => key(at(t))));
  const occurrences = [...starts]
    .filter((s) => !excluded.has(key(s)))
    .sort()
    .map((s) => ({ start: s, end: wallPlus(s, length) }));
  if (occurrences.length > MAX_OCCURRENCES) tooMany();
  if (!occurrences.length)
    bad('Every date of the series is excluded by an EXDATE: the series would be empty.');
  return {
    occurrences,
    ended: !open,
    text: rule ? ruleText(rule, times.start, until) : 'On chosen dates',
  };
}

/** English, as rrule-temporal words it ("Every week on Tuesday at 7 PM until June 30, 2027"). */
function ruleText(rule: Rule, start: string, until: string | undefined): string {
  const text = toText(ruleOf(rule, start, until), 'en', { excludeTzAbbreviation: true });
  return text.charAt(0).toUpperCase() + text.slice(1);
}
