import { DateTime, type Zone } from 'luxon';
import { parseDate, siteZone, utcWall, wall } from './dates';
import { invalidParam } from './errors';

/** Publication dates from `date` (wall time in `zone`) or `date_utc`; now when neither is sent. */
export function publicationDates(
  body: { date?: unknown; date_utc?: unknown },
  zone: Zone,
  now: DateTime,
): { date: string; date_utc: string } {
  let dt = now;
  if (body.date_utc !== undefined && body.date_utc !== null && body.date_utc !== '') {
    const parsed = parseDate(body.date_utc, now.toUTC().zone);
    if (!parsed) throw invalidParam('date_utc', 'date_utc is not a date.', 'rest_invalid_date');
    dt = parsed;
  }
  if (body.date !== undefined && body.date !== null && body.date !== '') {
    const parsed = parseDate(body.date, zone);
    if (!parsed) throw invalidParam('date', 'date is not a date.', 'rest_invalid_date');
    dt = parsed;
  }
  return { date: wall(dt.setZone(zone)), date_utc: utcWall(dt) };
}

/**
 * publicationDates in the site zone, `at` being now. The venue and organizer writes load this module
 * (and luxon with it) only for a body that sends `date` or `date_utc` (services/linked-post-state.ts).
 */
export const sitePublicationDates = (body: { date?: unknown; date_utc?: unknown }, at: Date) =>
  publicationDates(body, siteZone(), DateTime.fromJSDate(at));
