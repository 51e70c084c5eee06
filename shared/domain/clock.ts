import { config } from '../config';
import { fieldsAt, intlZone, wallOf } from './intl-zones';
import { wallAt } from './wall-time';

// "Now" as the `modified` stamps (and the publication dates of a venue or organizer written without
// one) show it, without luxon: the deletes, trash moves and most venue / organizer writes need nothing
// else of dates, and luxon is about 8 ms of a function's cold start. Time-zone maths stays with the
// platform's Intl; the zone is resolved as dates.ts resolveZone does (a test holds the two equal).

type Wall = (at: Date) => string;

const iso = (at: Date) => wallAt(at.getTime());

/** The `Y-m-d H:i:s` wall clock of a zone name (UTC when the name is not a zone), as dates.ts reads it. */
export function wallClock(name: string): Wall {
  const zone = intlZone(name);
  if (!zone) return iso;
  return (at) => wallOf(fieldsAt(at.getTime(), zone.offset(at.getTime())));
}

let site: Wall | undefined;
const siteWall = (): Wall => (site ??= wallClock(config.siteTimezone));

/** `modified` (site zone) and `modified_utc` of a write made now. */
export function nowStamps(at = new Date()): { modified: string; modified_utc: string } {
  return { modified: siteWall()(at), modified_utc: iso(at) };
}

/** The name of the site zone as dates.ts siteZone() gives it (UTC when it is none Intl knows). */
export const siteZoneName = (): string => intlZone(config.siteTimezone)?.name ?? 'UTC';

/** The site zone's `Y-m-d` date at `at`. */
export const siteDate = (at: Date): string => siteWall()(at).slice(0, 10);

/**
 * `date` (site zone) and `date_utc` of a post published at `at`: what publication-dates.ts gives
 * when neither is sent (a test holds the two equal), for the venue and organizer writes.
 */
export function nowDates(at: Date): { date: string; date_utc: string } {
  return { date: siteWall()(at), date_utc: iso(at) };
}
