import { invalidParam } from './errors';

/**
 * The calendar this service stores and lists: wall times from 0001-01-01 00:00:00 to
 * 9999-12-31 23:59:59. Inside it every `Y-m-d H:i:s` has a four-digit year, so the strings that keys,
 * bounds and tallies compare sort in time order; a date outside it is a 400 naming its parameter,
 * never a key like `10000-01-0` that sorts before 2027.
 */
export const FIRST_DAY = '0001-01-01';
export const LAST_DAY = '9999-12-31';
export const FIRST_WALL = `${FIRST_DAY} 00:00:00`;
export const LAST_WALL = `${LAST_DAY} 23:59:59`;

const WALL_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

/** Whether a `Y-m-d H:i:s` wall time lies in the calendar. */
export const inCalendar = (wall: string): boolean =>
  WALL_TIME.test(wall) && wall >= FIRST_WALL && wall <= LAST_WALL;

/** The 400 for a date parameter that reads as a date outside the calendar. */
export const outsideCalendar = (param: string) =>
  invalidParam(
    param,
    `${param} is outside the calendar: use a date from ${FIRST_DAY} to ${LAST_DAY}.`,
    'rest_date_out_of_range',
  );

const DAY_MS = 86_400_000;

/** Days from 1970-01-01 to a `Y-m-d` day (the first ten characters of `day`). */
export const dayNumber = (day: string): number => Date.parse(`${day.slice(0, 10)}T00:00:00Z`) / DAY_MS;

const FIRST = dayNumber(FIRST_DAY);
const LAST = dayNumber(LAST_DAY);

/**
 * The `Y-m-d` day of a day number, held to the calendar: a day before its first or after its last is
 * that first or last day (nothing is stored beyond them, so a bound there selects the same events).
 */
export const dayOf = (n: number): string =>
  new Date(Math.min(Math.max(n, FIRST), LAST) * DAY_MS).toISOString().slice(0, 10);

/** `days` calendar days after a `Y-m-d` day (before it when negative), held to the calendar. */
export const plusDays = (day: string, days: number): string => dayOf(dayNumber(day) + days);

/** Days in month `month` (1-12) of `year`: Date.UTC would read years 0-99 as 1900-1999. */
export function daysInMonth(year: number, month: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month, 0);
  return d.getUTCDate();
}
