import { TZ_ABBRS, TZ_LINKS } from './tz-abbrs';

/**
 * A zone's abbreviation at an offset as the tz database writes it, which is what PHP prints (decisions
 * §9): a lettered name where the database has one (`GMT`, `BST`, `EST`, `CEST`, `IST`, table generated
 * by scripts/gen-tz-abbrs.ts), else the offset in its numeric form (`-03`, `+0545`, `+00`). Intl cannot
 * give these: it names the offset (`GMT-3`). Undefined for a zone the database does not name (a fixed
 * offset such as `UTC+2`), which the caller names its own way.
 */
export function tzAbbr(zone: string, offsetMinutes: number): string | undefined {
  const names = namesOf(zone) ?? namesOf(byLowerCase().get(zone.toLowerCase()) ?? '');
  const lettered = names?.[String(offsetMinutes)];
  if (lettered) return lettered;
  if (!names && !isTzName(zone)) return undefined;
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = abs % 60 ? String(abs % 60).padStart(2, '0') : '';
  return `${sign}${hh}${mm}`;
}

/** An IANA zone name (`America/Argentina/Buenos_Aires`), as against a fixed offset or `UTC`. */
const isTzName = (zone: string) => /^[A-Za-z]+(?:\/[A-Za-z0-9_+-]+)+$/.test(zone);

const namesOf = (zone: string) => TZ_ABBRS[zone] ?? TZ_ABBRS[TZ_LINKS[zone] ?? ''];

let lower: Map<string, string> | undefined;
/** Zone names as the database writes them, by their lower case (`europe/london` is read as a zone too). */
function byLowerCase(): Map<string, string> {
  lower ??= new Map([...Object.keys(TZ_ABBRS), ...Object.keys(TZ_LINKS)].map((z) => [z.toLowerCase(), z]));
  return lower;
}
