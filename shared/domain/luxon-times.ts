import { DateTime, type Zone } from 'luxon';
import { readDateParam, resolveZone, siteZone, utcWall, wall, zoneAbbr } from './dates';
import type { TimeMaths } from './time-maths';

/** The date maths with luxon: every input the contract reads (dates.ts parseDate). */
export const luxonTimes: TimeMaths<Zone, DateTime> = {
  zone: resolveZone,
  site: () => ({ zone: siteZone(), name: siteZone().name }),
  read: readDateParam,
  at: (at, zone) => DateTime.fromJSDate(at, { zone }),
  plusDays: (m, days) => m.plus({ days }),
  plusMonths: (m, months) => m.plus({ months }),
  dayStart: (m) => m.startOf('day'),
  dayEnd: (m) => m.endOf('day').set({ millisecond: 0 }),
  ms: (m) => m.toMillis(),
  wall,
  utcWall,
  abbr: zoneAbbr,
};
