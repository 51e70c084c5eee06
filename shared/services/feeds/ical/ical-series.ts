import { intlTimes } from '../../../domain/intl-times';
import type { IntlZone } from '../../../domain/intl-zones';
import type { expandSeries } from '../../../domain/recurrence';
import {
  isRuleLine,
  type LineTime,
  lineValue,
  normalLines,
  readRecurrenceLines,
  ruleUntil,
} from '../../../domain/recurrence-lines';
import { wallDiff, wallMs, wallPlus } from '../../../domain/wall-time';
import type { EventView } from '../../events';

/**
 * The feed's series (docs/recurrence.md, "iCalendar"): the occurrences of one series listed in the
 * feed's window become ONE VEVENT with RRULE, RDATE and EXDATE, and each exception (an occurrence
 * edited or moved on its own) a VEVENT with the series' UID and a RECURRENCE-ID, its occurrence_start.
 *
 * The feed describes its window, as the JSON list does, with no more reads: the series VEVENT starts at
 * the earliest listed place the rule gave (its first occurrence's start may lie far before the window)
 * and its rule ends (UNTIL) at the latest, so COUNT needs no first occurrence either. Places of the rule
 * between them with no listed occurrence (cancelled, or moved out of the window) become EXDATEs, listed
 * places the rule does not make (the series' RDATEs) RDATEs. Expanding the VEVENTs therefore gives the
 * listed occurrences exactly; beyond the window a subscribed calendar sees the series as the window
 * moves on.
 */

export type ExpandSeries = typeof expandSeries;

/** An event as listed, with the fields of its place in a series (null or absent for a single event). */
type Listed = EventView & {
  series_id?: number | null;
  recurrence?: unknown;
  occurrence_start?: string | null;
  is_exception?: boolean;
};

/** One VEVENT to write: `event`'s fields, under `uid` when given, with `lines` added. */
export interface Vevent {
  event: EventView;
  uid?: string;
  /** RRULE, RDATE, EXDATE or RECURRENCE-ID content lines. */
  lines: string[];
}

/** How the feed writes an event's times: as dates, as wall times of a TZID, or in UTC. */
export type TimeForm = { kind: 'date' } | { kind: 'tzid'; tzid: string } | { kind: 'utc' };

export interface SeriesOptions {
  form(e: EventView): TimeForm;
  uid(seriesId: number): string;
  expand: ExpandSeries;
}

/** The VEVENTs of a window's events, in list order: a series where its first listed occurrence is. */
export function feedVevents(events: Listed[], o: SeriesOptions): Vevent[] {
  const groups = new Map<number, Listed[]>();
  for (const e of events)
    if (e.series_id != null) {
      const group = groups.get(e.series_id) ?? [];
      if (!group.length) groups.set(e.series_id, group);
      group.push(e);
    }
  const out: Vevent[] = [];
  for (const e of events) {
    if (e.series_id == null) out.push({ event: e, lines: [] });
    else if (groups.get(e.series_id)?.[0] === e) out.push(...seriesVevents(groups.get(e.series_id)!, o));
  }
  return out;
}

const positionOf = (e: Listed) => e.occurrence_start ?? e.start_date;
const unplaceable = (): never => {
  throw new Error('A zone the feed cannot place a series in.');
};

/** A series' VEVENTs; its occurrences as single events when it cannot be written as one. */
function seriesVevents(group: Listed[], o: SeriesOptions): Vevent[] {
  try {
    return asSeries(group, o);
  } catch {
    // A zone or a line this writer cannot place (the API refused neither): the occurrences stay exact.
    return group.map((event) => ({ event, lines: [] }));
  }
}

function asSeries(group: Listed[], o: SeriesOptions): Vevent[] {
  const base = group.find((e) => !e.is_exception) ?? group[0]!;
  const form = o.form(base);
  const maths = intlTimes();
  const zone = maths.zone(base.timezone || 'UTC') ?? unplaceable();
  const key = (wall: string) => (form.kind === 'date' ? wall.slice(0, 10) : wall);
  const utcOf = (wall: string) => maths.utcWall(maths.read('occurrence_start', wall, zone));
  const value = (wall: string) =>
    form.kind === 'date'
      ? lineValue(wall, true)
      : form.kind === 'tzid'
        ? lineValue(wall)
        : `${lineValue(utcOf(wall))}Z`;
  const param = form.kind === 'date' ? ';VALUE=DATE' : form.kind === 'tzid' ? `;TZID=${form.tzid}` : '';
  const line = (name: string, walls: string[]) =>
    walls.length ? [`${name}${param}:${walls.map(value).join(',')}`] : [];

  const places = new Map<string, string>();
  for (const e of group) places.set(key(positionOf(e)), positionOf(e));
  const listed = [...places.values()].sort();
  const length = wallDiff(base.end_date, base.start_date);
  // Lines stored before they were normalised (issue 43) are written upper case too.
  const lines = normalLines((base.recurrence as string[] | null | undefined) ?? []);
  // A rule in UTC places 19:00 New York at 23:00 or 00:00 UTC by season: only dates, wall times of a
  // TZID and UTC itself keep the event's wall time.
  const byRule = form.kind !== 'utc' || (zone.fixed && zone.offset(0) === 0);
  const rule = byRule
    ? ruleOrNone(() => ruleLines(lines, listed, { key, line, value, form, length, base, zone, o }))
    : undefined;
  const start = rule?.start ?? listed[0]!;
  const end = wallPlus(start, length);
  const uid = o.uid(base.series_id!);
  const newest = group.map((e) => e.modified_utc ?? '').reduce((a, b) => (b > a ? b : a), '');
  const master: EventView = {
    ...base,
    start_date: start,
    end_date: end,
    utc_start_date: form.kind === 'date' ? base.utc_start_date : utcOf(start),
    utc_end_date: form.kind === 'date' ? base.utc_end_date : utcOf(end),
    ...(newest ? { modified_utc: newest } : {}),
  };
  return [
    // Without a rule, every place is an RDATE, DTSTART's too: RFC 5545 counts it once, and ical.js
    // expands an RDATE-only VEVENT without its DTSTART.
    { event: master, uid, lines: rule?.lines ?? line('RDATE', listed) },
    ...group
      .filter((e) => e.is_exception)
      .map((event) => ({ event, uid, lines: [`RECURRENCE-ID${param}:${value(positionOf(event))}`] })),
  ];
}

/**
 * The rule's lines, or none when the expansion refuses the window's rule (more than 1,000 places in a
 * long window, or a start the rule alone does not match): the listed places are then all RDATEs.
 */
function ruleOrNone<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

interface RuleContext {
  key(wall: string): string;
  line(name: string, walls: string[]): string[];
  value(wall: string): string;
  form: TimeForm;
  length: number;
  base: Listed;
  zone: IntlZone;
  o: SeriesOptions;
}

/**
 * The RRULE from the earliest listed place the rule made (not an RDATE's: its weekday or time may not
 * be the rule's) to the latest listed place, with the RDATEs and EXDATEs that make the listed places.
 */
function ruleLines(lines: string[], listed: string[], c: RuleContext) {
  const read = readRecurrenceLines(lines);
  const rrule = lines.find(isRuleLine);
  if (!read.rule || !rrule) return undefined;
  const maths = intlTimes();
  const timeOfDay = c.base.start_date.slice(11);
  const rdates = new Set(read.rdates.map((t) => c.key(lineWall(maths, c.zone, t, timeOfDay))));
  const start = listed.find((w) => !rdates.has(c.key(w)));
  if (!start) return undefined;
  const last = listed[listed.length - 1]!;
  const untilFloating = lineValue(last, c.form.kind === 'date');
  const made = c.o
    .expand(
      maths,
      c.zone,
      [ruleUntil(rrule, untilFloating)],
      { start, end: wallPlus(start, c.length), allDay: c.form.kind === 'date' },
      last,
    )
    .occurrences.map((p) => p.start);
  // RFC 5545 §3.3.10: UNTIL in UTC when DTSTART has a TZID, a date when it is a date.
  const until = c.form.kind === 'tzid' ? utcValue(maths, c.zone, last) : c.value(last);
  const madeKeys = new Set(made.map(c.key));
  const listedKeys = new Set(listed.map(c.key));
  return {
    start,
    lines: [
      ruleUntil(rrule, until),
      ...c.line(
        'RDATE',
        listed.filter((w) => !madeKeys.has(c.key(w))),
      ),
      ...c.line(
        'EXDATE',
        made.filter((w) => !listedKeys.has(c.key(w))),
      ),
    ],
  };
}

type Maths = ReturnType<typeof intlTimes>;

function utcValue(maths: Maths, zone: IntlZone, wall: string): string {
  return `${lineValue(maths.utcWall(maths.read('recurrence', wall, zone)))}Z`;
}

/** An RDATE's date or time as a wall time of the event's zone (a date alone at `timeOfDay`). */
function lineWall(maths: Maths, zone: IntlZone, t: LineTime, timeOfDay: string): string {
  if (t.date) return `${t.wall} ${timeOfDay}`;
  if (t.utc) return maths.wall(maths.at(new Date(wallMs(t.wall)), zone));
  if (!t.tzid) return t.wall;
  const other = maths.zone(t.tzid) ?? unplaceable();
  return maths.wall(maths.at(new Date(maths.ms(maths.read('recurrence', t.wall, other))), zone));
}
