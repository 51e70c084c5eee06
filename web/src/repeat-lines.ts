import {
  isRuleLine,
  lineValue,
  readRecurrenceLines,
  type Rule,
  ruleLine,
  type Weekday,
} from '../../shared/domain/recurrence-lines';
import { wallMs } from '../../shared/domain/wall-time';

/**
 * The editor's repeat control as data, and the RFC 5545 `recurrence` lines the API takes for it
 * (docs/recurrence.md), read and written by the service's own module (shared/domain/recurrence-lines.ts).
 * Pure: no DOM, so test/unit/repeat-lines.test.ts runs it in Node.
 */

export type { Weekday };
/** Monday first, as the calendar shows weeks. */
export const WEEKDAYS: readonly Weekday[] = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
const DAY_NAMES: Record<Weekday, string> = {
  MO: 'Monday',
  TU: 'Tuesday',
  WE: 'Wednesday',
  TH: 'Thursday',
  FR: 'Friday',
  SA: 'Saturday',
  SU: 'Sunday',
};
export const dayName = (d: Weekday) => DAY_NAMES[d];

/**
 * `monthly-day`: on the start's day of the month; `monthly-nth`: on its weekday's place in the month
 * (the second Tuesday); `monthly-last`: on the last such weekday of the month.
 */
export type Frequency =
  'never' | 'daily' | 'weekly' | 'monthly-day' | 'monthly-nth' | 'monthly-last' | 'yearly';
export type Ending = 'never' | 'on' | 'after';

export interface Repeat {
  freq: Frequency;
  /** Every N days, weeks, months or years. */
  interval: number;
  /** Weekly: the days (the start's day when none is chosen). */
  days: Weekday[];
  ends: Ending;
  /** `Y-m-d`, the last day (ends `on`). */
  until: string;
  /** How many events in all (ends `after`). */
  count: number;
}

export const NO_REPEAT: Repeat = {
  freq: 'never',
  interval: 1,
  days: [],
  ends: 'never',
  until: '',
  count: 10,
};

/** The calendar day of a `Y-m-d[ H:i:s]` wall time (no zone: its fields are the date). */
function dayOf(wall: string): { date: Date; day: number; weekday: Weekday; daysInMonth: number } {
  const date = new Date(wallMs(`${wall.slice(0, 10)} 00:00:00`));
  const weekday = WEEKDAYS[(date.getUTCDay() + 6) % 7]!;
  const daysInMonth = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  return { date, day: date.getUTCDate(), weekday, daysInMonth };
}

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth'];

/** The choices of the frequency select for an event starting at `start`: value and label. */
export function frequencyChoices(start: string): Array<{ value: Frequency; label: string }> {
  const choices: Array<{ value: Frequency; label: string }> = [
    { value: 'never', label: 'Does not repeat' },
    { value: 'daily', label: 'Daily' },
    { value: 'weekly', label: 'Weekly' },
    { value: 'yearly', label: 'Yearly' },
  ];
  if (!/^\d{4}-\d{2}-\d{2}/.test(start)) return choices;
  const { day, weekday, daysInMonth } = dayOf(start);
  const nth = Math.ceil(day / 7);
  const monthly: Array<{ value: Frequency; label: string }> = [
    { value: 'monthly-day', label: `Monthly on day ${day}` },
  ];
  if (nth <= 4)
    monthly.push({ value: 'monthly-nth', label: `Monthly on the ${ORDINALS[nth - 1]} ${dayName(weekday)}` });
  if (day + 7 > daysInMonth)
    monthly.push({ value: 'monthly-last', label: `Monthly on the last ${dayName(weekday)}` });
  choices.splice(3, 0, ...monthly);
  return choices;
}

/**
 * The `recurrence` lines of a repeat for an event starting at `start` (its wall time), or null when it
 * does not repeat. A weekly repeat on no chosen day repeats on the start's day.
 */
export function recurrenceLines(r: Repeat, start: string): string[] | null {
  if (r.freq === 'never') return null;
  const { day, weekday } = dayOf(start);
  const rule = {
    interval: r.interval,
    ...(r.ends === 'on' && r.until ? { until: lineValue(r.until, true) } : {}),
    ...(r.ends === 'after' ? { count: r.count } : {}),
  };
  const on = (nth?: number) => [{ day: weekday, ...(nth === undefined ? {} : { nth }) }];
  if (r.freq === 'daily') return [ruleLine({ ...rule, freq: 'DAILY' })];
  if (r.freq === 'weekly') {
    const days = WEEKDAYS.filter((d) => r.days.includes(d));
    return [ruleLine({ ...rule, freq: 'WEEKLY', byDay: days.length ? days.map((d) => ({ day: d })) : on() })];
  }
  if (r.freq === 'monthly-day') return [ruleLine({ ...rule, freq: 'MONTHLY', byMonthDay: [day] })];
  if (r.freq === 'monthly-nth')
    return [ruleLine({ ...rule, freq: 'MONTHLY', byDay: on(Math.ceil(day / 7)) })];
  if (r.freq === 'monthly-last') return [ruleLine({ ...rule, freq: 'MONTHLY', byDay: on(-1) })];
  return [ruleLine({ ...rule, freq: 'YEARLY' })];
}

/** The one RRULE of `lines` as the service reads it, or undefined when it is not one it takes. */
function onlyRule(lines: readonly string[]): Rule | undefined {
  if (lines.length !== 1 || !isRuleLine(lines[0]!)) return undefined;
  try {
    return readRecurrenceLines(lines).rule;
  } catch {
    return undefined;
  }
}

/**
 * The control's state for an event's `recurrence` lines, or undefined when the control cannot show
 * them (RDATE or EXDATE lines, or rule parts it has no field for): the editor then keeps them as they
 * are unless the user picks a repeat anew.
 */
export function repeatOf(lines: readonly string[] | null | undefined, start: string): Repeat | undefined {
  if (!lines || !lines.length) return { ...NO_REPEAT };
  const rule = onlyRule(lines);
  if (!rule || rule.byMonth || rule.bySetPos || rule.wkst) return undefined;
  const r: Repeat = { ...NO_REPEAT, interval: rule.interval };
  if (rule.until) {
    r.ends = 'on';
    r.until = rule.until.wall.slice(0, 10);
  }
  if (rule.count !== undefined) {
    r.ends = 'after';
    r.count = rule.count;
  }
  const { day, weekday } = dayOf(start);
  const { byDay, byMonthDay } = rule;
  const one = byDay?.length === 1 && byDay[0]!.day === weekday ? byDay[0]! : undefined;
  switch (rule.freq) {
    case 'DAILY':
      return byDay || byMonthDay ? undefined : { ...r, freq: 'daily' };
    case 'WEEKLY':
      if (byMonthDay || byDay?.some((d) => d.nth !== undefined)) return undefined;
      return { ...r, freq: 'weekly', days: byDay ? byDay.map((d) => d.day) : [weekday] };
    case 'MONTHLY':
      if (byMonthDay && !byDay && byMonthDay.length === 1 && byMonthDay[0] === day)
        return { ...r, freq: 'monthly-day' };
      if (!byMonthDay && one?.nth === Math.ceil(day / 7)) return { ...r, freq: 'monthly-nth' };
      if (!byMonthDay && one?.nth === -1) return { ...r, freq: 'monthly-last' };
      if (!byMonthDay && !byDay) return { ...r, freq: 'monthly-day' };
      return undefined;
    case 'YEARLY':
      return byDay || byMonthDay ? undefined : { ...r, freq: 'yearly' };
  }
}
