import { DateTime, type Zone } from 'luxon';
import { inCalendar, outsideCalendar } from './calendar';
import { notADate } from './date-forms';
import { parseDate, siteZone, utcWall, wall } from './dates';
import { invalidParam } from './errors';

const given = (v: unknown) => v !== undefined && v !== null && v !== '';

/**
 * Publication dates from `date` (wall time in `zone`) or `date_utc`; now when neither is sent. Both
 * are shown, so both must lie in the calendar (calendar.ts): otherwise a 400 naming the one sent.
 */
export function publicationDates(
  body: { date?: unknown; date_utc?: unknown },
  zone: Zone,
  now: DateTime,
): { date: string; date_utc: string } {
  let dt = now;
  let param: string | undefined;
  for (const [name, value, from] of [
    ['date_utc', body.date_utc, now.toUTC().zone],
    ['date', body.date, zone],
  ] as const) {
    if (!given(value)) continue;
    const parsed = parseDate(value, from);
    if (!parsed) throw invalidParam(name, notADate(name), 'rest_invalid_date');
    dt = parsed;
    param = name;
  }
  const dates = { date: wall(dt.setZone(zone)), date_utc: utcWall(dt) };
  if (param && !(inCalendar(dates.date) && inCalendar(dates.date_utc))) throw outsideCalendar(param);
  return dates;
}

/**
 * publicationDates in the site zone, `at` being now. The venue and organizer writes load this module
 * (and luxon with it) only for a body that sends `date` or `date_utc` (services/linked/write/post-state.ts).
 */
export const sitePublicationDates = (body: { date?: unknown; date_utc?: unknown }, at: Date) =>
  publicationDates(body, siteZone(), DateTime.fromJSDate(at));
