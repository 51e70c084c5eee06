import type { DateBounds } from './date-bounds';
import { type TimeMaths, withTimeMaths } from './time-maths';

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
 * The date window of an event list at `now`, with either date maths (time-maths.ts): inclusive whole
 * days unless `strict_dates`; the default window (beginning of yesterday to the end of the day 24
 * months ahead) unless a relative bound is given.
 */
export function windowWith<Z, M>(maths: TimeMaths<Z, M>, q: WindowQuery, now: Date): DateBounds {
  const { zone } = maths.site();
  const strict = q.strict_dates === true;
  const read = (param: keyof WindowQuery): M | undefined => {
    const value = q[param];
    return value === undefined ? undefined : maths.read(param, value, zone);
  };
  const day = (m: M) => maths.wall(m).slice(0, 10);
  const dayStart = (m: M) => `${day(m)} 00:00:00`;
  const dayEnd = (m: M) => `${day(m)} ${END_OF_DAY}`;
  const at = (m: M | undefined, inclusive: (m: M) => string) =>
    m === undefined ? undefined : strict ? maths.wall(m) : inclusive(m);

  const relative = ['starts_before', 'starts_after', 'ends_before', 'ends_after'].some(
    (k) => q[k as keyof WindowQuery] !== undefined,
  );
  const local = maths.at(now, zone);
  const start = read('start_date') ?? (relative ? undefined : maths.dayStart(maths.plusDays(local, -1)));
  const end = read('end_date') ?? (relative ? undefined : maths.plusMonths(local, 24));
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

/** The window of a list query at `now`, with Intl's maths, or luxon's for the inputs only luxon reads. */
export const windowAt = (q: WindowQuery, now: Date): Promise<DateBounds> =>
  withTimeMaths((maths) => windowWith(maths, q, now));
