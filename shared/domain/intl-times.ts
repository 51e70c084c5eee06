import { config } from '../config';
import { inCalendar, outsideCalendar } from './calendar';
import type { TimeMaths } from './time-maths';
import { tzAbbr } from './zone-abbr';
import {
  ABBR_LOCALES,
  fieldsAt,
  type Fields,
  fromWall,
  type IntlZone,
  intlZone,
  localMs,
  wallOf,
} from './intl-zones';

/** Thrown for an input these maths leave to luxon (luxon-times.ts): the caller retries with it. */
export const BEYOND = Symbol('beyond Intl times');

const beyond = (): never => {
  throw BEYOND;
};

interface Moment {
  ts: number;
  o: number;
  zone: IntlZone;
}

/** `Y-m-d[ H:i[:s]]` (dates.ts SQL_LIKE, which luxon reads with fromSQL). */
const WALL_INPUT = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/** Days in a month; months past 12 or below 1 count into the next or previous years. */
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The fields of a wall time every calendar has; undefined for anything luxon should judge. */
function wallFields(value: unknown): Fields | undefined {
  const m = typeof value === 'string' ? WALL_INPUT.exec(value.trim()) : null;
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1).map((x) => Number(x ?? 0)) as number[];
  const f = { year: year!, month: month!, day: day!, hour: hour!, minute: minute!, second: second! };
  const valid =
    f.year >= 100 && f.month >= 1 && f.month <= 12 && f.day >= 1 && f.day <= daysIn(f.year, f.month);
  return valid && f.hour <= 23 && f.minute <= 59 && f.second <= 59 ? f : undefined;
}

/** luxon's `set(fields)` on a moment: the new wall time, from the moment's own offset. */
const at = (m: Moment, f: Fields): Moment => ({ ...fromWall(localMs(f), m.o, m.zone), zone: m.zone });
const fields = (m: Moment) => fieldsAt(m.ts, m.o);
const dayStart = (m: Moment) => at(m, { ...fields(m), hour: 0, minute: 0, second: 0, millisecond: 0 });
/** luxon's `plus({ months, days })` (adjustTime): calendar fields moved, the day kept within the month. */
function plus(m: Moment, months: number, days: number): Moment {
  const f = fields(m);
  const month = f.month + months;
  return at(m, { ...f, month, day: Math.min(f.day, daysIn(f.year, month)) + days });
}

/**
 * The date maths with Intl alone, for wall-time inputs in zones Intl knows: the same results as
 * luxon-times.ts, step for step (a luxon DateTime is an instant and the offset it shows), and BEYOND
 * for every other input. `now` gives the provisional offset luxon starts from, which decides a wall
 * time that occurs twice.
 */
export function intlTimes(now: () => number = Date.now): TimeMaths<IntlZone, Moment> {
  return {
    zone: (name) => intlZone(name) ?? beyond(),
    site: () => {
      const zone = intlZone(config.siteTimezone) ?? beyond();
      return { zone, name: zone.name };
    },
    read(param, value, zone) {
      const f = wallFields(value) ?? beyond();
      const m: Moment = { ...fromWall(localMs(f), zone.offset(now()), zone), zone };
      // A wall time in a daylight-saving gap moves forward: past the calendar's last second, in theory.
      if (!inCalendar(wallOf(fields(m)))) throw outsideCalendar(param);
      return m;
    },
    at: (instant, zone) => ({ ts: instant.getTime(), o: zone.offset(instant.getTime()), zone }),
    plusDays: (m, days) => plus(m, 0, days),
    plusMonths: (m, months) => plus(m, months, 0),
    dayStart,
    // luxon's endOf('day').set({ millisecond: 0 }): plus a day, start of day, minus 1 ms, whole second.
    dayEnd(m) {
      const next = dayStart(plus(m, 0, 1));
      const again = at(next, fields(next));
      const ts = again.ts - 1;
      const last: Moment = { ts, o: m.zone.offset(ts), zone: m.zone };
      return at(last, { ...fields(last), millisecond: 0 });
    },
    ms: (m) => m.ts,
    wall: (m) => wallOf(fields(m)),
    utcWall: (m) => wallOf(fieldsAt(m.ts, 0)),
    abbr(m) {
      const tz = m.zone.fixed ? undefined : tzAbbr(m.zone.name, m.o);
      if (tz) return tz;
      for (const locale of ABBR_LOCALES) {
        const name = m.zone.shortName(m.ts, locale);
        if (/^[A-Z]{2,5}$/.test(name)) return name;
      }
      return m.zone.shortName(m.ts, 'en-US').replace(/^GMT/, 'UTC');
    },
  };
}
