import { inCalendar, outsideCalendar } from './calendar';
import { invalidParam } from './errors';
import { type TimeMaths, withTimeMaths } from './time-maths';
import { wallDiff } from './wall-time';

/** An event's times as stored: wall times in its zone, the same instants in UTC, and the zone. */
export interface EventTimes {
  start: string;
  end: string;
  utcStart: string;
  utcEnd: string;
  timezone: string;
  timezoneAbbr: string;
  allDay: boolean;
}

export interface TimesInput {
  start_date?: unknown;
  end_date?: unknown;
  timezone?: string | null;
  all_day?: boolean;
}

function zoneFrom<Z, M>(maths: TimeMaths<Z, M>, input: TimesInput, current?: EventTimes) {
  if (input.timezone === undefined) {
    const name = current?.timezone ?? maths.site().name;
    return { zone: maths.zone(name) ?? maths.site().zone, name };
  }
  if (input.timezone === null || input.timezone.trim() === '') return maths.site();
  const zone = maths.zone(input.timezone);
  if (!zone)
    throw invalidParam(
      'timezone',
      `timezone "${input.timezone}" is not an IANA time zone or UTC±N.`,
      'rest_invalid_timezone',
    );
  return { zone, name: /^utc$/i.test(input.timezone.trim()) ? 'UTC' : input.timezone.trim() };
}

/** A value written as a plain wall time (`Y-m-d H:i[:s]`), as `Y-m-d H:i:s`; else undefined. */
export function writtenWall(value: unknown): string | undefined {
  const m =
    typeof value === 'string'
      ? /^(\d{4}-\d{2}-\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim())
      : null;
  return m ? `${m[1]} ${m[2]}:${m[3]}:${m[4] ?? '00'}` : undefined;
}

/** How far reading moved a written wall time forward (a daylight-saving gap), in ms; else 0. */
function gapShift<Z, M>(maths: TimeMaths<Z, M>, read: M, value: unknown): number {
  const written = writtenWall(value);
  const shift = written ? wallDiff(maths.wall(read), written) : 0;
  return shift > 0 ? shift : 0;
}

/**
 * A start written inside a daylight-saving gap (02:30 on a spring-forward day) is read forward by the
 * gap, as RFC 5545 §3.3.5 reads it (03:30); the end moves with it, so the event keeps the length it was
 * written with (issue 43). An end in the gap too has moved the same already.
 */
function keepLength<Z, M>(
  maths: TimeMaths<Z, M>,
  zone: Z,
  start: M,
  end: M,
  sentStart: unknown,
  sentEnd: unknown,
): M {
  const shift = gapShift(maths, start, sentStart);
  if (!shift || writtenWall(sentEnd) === undefined) return end;
  const more = shift - gapShift(maths, end, sentEnd);
  return more > 0 ? maths.at(new Date(maths.ms(end) + more), zone) : end;
}

/**
 * Works out start and end from a create or a partial update: absent dates keep their wall time (read
 * in the possibly new zone), `all_day` widens to whole days, and an end before the start is a 400.
 */
export function timesWith<Z, M>(maths: TimeMaths<Z, M>, input: TimesInput, current?: EventTimes): EventTimes {
  const { zone, name } = zoneFrom(maths, input, current);
  let start = maths.read('start_date', input.start_date ?? current?.start, zone);
  let end = maths.read('end_date', input.end_date ?? current?.end, zone);
  const allDay = input.all_day ?? current?.allDay ?? false;
  if (allDay) {
    start = maths.dayStart(start);
    end = maths.dayEnd(end);
  }
  if (!allDay) end = keepLength(maths, zone, start, end, input.start_date, input.end_date);
  if (maths.ms(end) < maths.ms(start))
    throw invalidParam('end_date', 'end_date must not be before start_date.', 'rest_end_before_start');
  // The wall times were read inside the calendar; the same instants in UTC are shown too.
  const utcStart = maths.utcWall(start);
  const utcEnd = maths.utcWall(end);
  if (!inCalendar(utcStart)) throw outsideCalendar('start_date');
  if (!inCalendar(utcEnd)) throw outsideCalendar('end_date');
  return {
    start: maths.wall(start),
    end: maths.wall(end),
    utcStart,
    utcEnd,
    timezone: name,
    timezoneAbbr: maths.abbr(start),
    allDay,
  };
}

/**
 * An event's times from a create or update. Wall times (`Y-m-d[ H:i[:s]]`) in a zone Intl knows,
 * what clients send and what updates keep, are read with Intl (intl-times.ts); any other input
 * (ISO 8601, timestamps, relative phrases, names only luxon resolves) loads luxon on first use.
 */
export const resolveEventTimes = (input: TimesInput, current?: EventTimes): Promise<EventTimes> =>
  withTimeMaths((maths) => timesWith(maths, input, current));
