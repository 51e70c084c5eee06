import { config } from '../config';

// "Now" as the `modified` stamps (and the publication dates of a venue or organizer written without
// one) show it, without luxon: the deletes, trash moves and most venue / organizer writes need nothing
// else of dates, and luxon is about 8 ms of a function's cold start. Time-zone maths stays with the
// platform's Intl; the zone is resolved as dates.ts resolveZone does (a test holds the two equal).

/** `UTC±H[:MM]` as luxon reads it (dates.ts accepts up to ±14 h, as real offsets run). */
const FIXED = /^utc(?:([+-]\d{1,2})(?::(\d{2}))?)?$/i;

type Wall = (at: Date) => string;

const iso = (at: Date) => at.toISOString().slice(0, 19).replace('T', ' ');
const shifted =
  (minutes: number): Wall =>
  (at) =>
    iso(new Date(at.getTime() + minutes * 60_000));

function inZone(timeZone: string): Wall | undefined {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
  } catch {
    return undefined; // not a zone Intl knows
  }
  return (at) => {
    const p = Object.fromEntries(format.formatToParts(at).map((x) => [x.type, x.value]));
    return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
  };
}

/** The `Y-m-d H:i:s` wall clock of a zone name (UTC when the name is not a zone), as dates.ts reads it. */
export function wallClock(name: string): Wall {
  const fixed = FIXED.exec(name.trim());
  if (fixed) {
    const hours = Number(fixed[1] ?? 0);
    const minutes = hours * 60 + (fixed[1]?.startsWith('-') ? -1 : 1) * Number(fixed[2] ?? 0);
    return Math.abs(minutes) > 14 * 60 ? iso : shifted(minutes);
  }
  return (name.trim() !== '' && inZone(name.trim())) || iso;
}

let site: Wall | undefined;
const siteWall = (): Wall => (site ??= wallClock(config.siteTimezone));

/** `modified` (site zone) and `modified_utc` of a write made now. */
export function nowStamps(at = new Date()): { modified: string; modified_utc: string } {
  return { modified: siteWall()(at), modified_utc: iso(at) };
}

/** The site zone's `Y-m-d` date at `at`. */
export const siteDate = (at: Date): string => siteWall()(at).slice(0, 10);

/**
 * `date` (site zone) and `date_utc` of a post published at `at`: what publication-dates.ts gives
 * when neither is sent (a test holds the two equal), for the venue and organizer writes.
 */
export function nowDates(at: Date): { date: string; date_utc: string } {
  return { date: siteWall()(at), date_utc: iso(at) };
}
