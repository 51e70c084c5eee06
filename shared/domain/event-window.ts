import { DateTime } from 'luxon';
import type { DateBounds } from './date-bounds';
import { readDateParam, siteZone, wall } from './dates';

export interface WindowQuery {
  start_date?: string | number;
  end_date?: string | number;
  starts_before?: string | number;
  starts_after?: string | number;
  ends_before?: string | number;
  ends_after?: string | number;
  strict_dates?: boolean;
}

const END_OF_DAY = '23:59:59';

/**
 * The date window of an event list: inclusive whole days unless `strict_dates`; the default window
 * (beginning of yesterday to the end of the day 24 months ahead) unless a relative bound is given.
 */
export function dateBounds(q: WindowQuery, now: DateTime = DateTime.now()): DateBounds {
  const zone = siteZone();
  const strict = q.strict_dates === true;
  const read = (param: keyof WindowQuery): DateTime | undefined => {
    const value = q[param];
    if (value === undefined) return undefined;
    return readDateParam(param, value, zone).setZone(zone);
  };
  const dayStart = (dt: DateTime) => `${dt.toFormat('yyyy-MM-dd')} 00:00:00`;
  const dayEnd = (dt: DateTime) => `${dt.toFormat('yyyy-MM-dd')} ${END_OF_DAY}`;
  const at = (dt: DateTime | undefined, inclusive: (d: DateTime) => string) =>
    dt === undefined ? undefined : strict ? wall(dt) : inclusive(dt);

  const relative = ['starts_before', 'starts_after', 'ends_before', 'ends_after'].some(
    (k) => q[k as keyof WindowQuery] !== undefined,
  );
  const local = now.setZone(zone);
  const start = read('start_date') ?? (relative ? undefined : local.minus({ days: 1 }).startOf('day'));
  const end = read('end_date') ?? (relative ? undefined : local.plus({ months: 24 }));
  return {
    startMin: at(start, dayStart),
    endMax: at(end, dayEnd),
    startBefore: at(read('starts_before'), dayEnd),
    startAfter: at(read('starts_after'), dayEnd),
    endBefore: at(read('ends_before'), dayEnd),
    endAfter: at(read('ends_after'), dayEnd),
    dayAligned: !strict,
  };
}
