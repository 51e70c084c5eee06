/**
 * The editor's repeat control as data, and the RFC 5545 `recurrence` lines the API takes for it
 * (docs/recurrence.md). Pure: no DOM, so test/unit/repeat-lines.test.ts runs it in Node.
 */

export type Weekday = 'MO' | 'TU' | 'WE' | 'TH' | 'FR' | 'SA' | 'SU';
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
  const date = new Date(`${wall.slice(0, 10)}T00:00:00Z`);
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

const compactDay = (ymd: string) => ymd.replace(/-/g, '');

/**
 * The `recurrence` lines of a repeat for an event starting at `start` (its wall time), or null when it
 * does not repeat. A weekly repeat on no chosen day repeats on the start's day.
 */
export function recurrenceLines(r: Repeat, start: string): string[] | null {
  if (r.freq === 'never') return null;
  const { day, weekday } = dayOf(start);
  const parts: string[] = [];
  if (r.freq === 'daily') parts.push('FREQ=DAILY');
  else if (r.freq === 'weekly') {
    const days = WEEKDAYS.filter((d) => r.days.includes(d));
    parts.push('FREQ=WEEKLY', `BYDAY=${(days.length ? days : [weekday]).join(',')}`);
  } else if (r.freq === 'monthly-day') parts.push('FREQ=MONTHLY', `BYMONTHDAY=${day}`);
  else if (r.freq === 'monthly-nth') parts.push('FREQ=MONTHLY', `BYDAY=${Math.ceil(day / 7)}${weekday}`);
  else if (r.freq === 'monthly-last') parts.push('FREQ=MONTHLY', `BYDAY=-1${weekday}`);
  else parts.push('FREQ=YEARLY');
  if (r.interval > 1) parts.push(`INTERVAL=${r.interval}`);
  if (r.ends === 'on' && r.until) parts.push(`UNTIL=${compactDay(r.until)}`);
  if (r.ends === 'after') parts.push(`COUNT=${r.count}`);
  return [`RRULE:${parts.join(';')}`];
}

/**
 * The control's state for an event's `recurrence` lines, or undefined when the control cannot show
 * them (RDATE or EXDATE lines, or rule parts it has no field for): the editor then keeps them as they
 * are unless the user picks a repeat anew.
 */
export function repeatOf(lines: readonly string[] | null | undefined, start: string): Repeat | undefined {
  if (!lines || !lines.length) return { ...NO_REPEAT };
  if (lines.length !== 1 || !/^RRULE:/i.test(lines[0]!)) return undefined;
  const parts = new Map(
    lines[0]!
      .slice(6)
      .split(';')
      .map((p) => p.toUpperCase().split('=') as [string, string]),
  );
  const known = ['FREQ', 'INTERVAL', 'BYDAY', 'BYMONTHDAY', 'COUNT', 'UNTIL'];
  if ([...parts.keys()].some((k) => !known.includes(k))) return undefined;
  const r: Repeat = { ...NO_REPEAT, interval: Number(parts.get('INTERVAL') ?? 1) };
  const until = parts.get('UNTIL');
  if (until) {
    const m = /^(\d{4})(\d{2})(\d{2})/.exec(until);
    if (!m) return undefined;
    r.ends = 'on';
    r.until = `${m[1]}-${m[2]}-${m[3]}`;
  }
  if (parts.has('COUNT')) {
    r.ends = 'after';
    r.count = Number(parts.get('COUNT'));
  }
  const { day, weekday } = dayOf(start);
  const byDay = parts.get('BYDAY');
  const byMonthDay = parts.get('BYMONTHDAY');
  switch (parts.get('FREQ')) {
    case 'DAILY':
      if (byDay || byMonthDay) return undefined;
      return { ...r, freq: 'daily' };
    case 'WEEKLY': {
      const days = (byDay ?? weekday).split(',');
      if (byMonthDay || !days.every((d) => (WEEKDAYS as readonly string[]).includes(d))) return undefined;
      return { ...r, freq: 'weekly', days: days as Weekday[] };
    }
    case 'MONTHLY':
      if (byMonthDay && !byDay && Number(byMonthDay) === day) return { ...r, freq: 'monthly-day' };
      if (!byMonthDay && byDay === `${Math.ceil(day / 7)}${weekday}`) return { ...r, freq: 'monthly-nth' };
      if (!byMonthDay && byDay === `-1${weekday}`) return { ...r, freq: 'monthly-last' };
      if (!byMonthDay && !byDay) return { ...r, freq: 'monthly-day' };
      return undefined;
    case 'YEARLY':
      return byDay || byMonthDay ? undefined : { ...r, freq: 'yearly' };
    default:
      return undefined;
  }
}
