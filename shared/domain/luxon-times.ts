import type { DateTime, Zone } from 'luxon';
import { readDateParam, resolveZone, siteZone, utcWall, wall, zoneAbbr } from './dates';
import type { TimeMaths } from './event-times';

/** Event times' maths with luxon: every input the contract reads (dates.ts parseDate). */
export const luxonTimes: TimeMaths<Zone, DateTime> = {
  zone: resolveZone,
  site: () => ({ zone: siteZone(), name: siteZone().name }),
  read: readDateParam,
  dayStart: (m) => m.startOf('day'),
  dayEnd: (m) => m.endOf('day').set({ millisecond: 0 }),
  ms: (m) => m.toMillis(),
  wall,
  utcWall,
  abbr: zoneAbbr,
};
