import type { Zone } from 'luxon';
import { invalidParam } from './errors';
import { readDateParam, resolveZone, siteZone, utcWall, wall, zoneAbbr } from './dates';

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

function zoneFrom(input: TimesInput, current?: EventTimes): { zone: Zone; name: string } {
  if (input.timezone === undefined) {
    const name = current?.timezone ?? siteZone().name;
    return { zone: resolveZone(name) ?? siteZone(), name };
  }
  if (input.timezone === null || input.timezone.trim() === '')
    return { zone: siteZone(), name: siteZone().name };
  const zone = resolveZone(input.timezone);
  if (!zone)
    throw invalidParam(
      'timezone',
      `timezone "${input.timezone}" is not an IANA time zone or UTC±N.`,
      'rest_invalid_timezone',
    );
  return { zone, name: /^utc$/i.test(input.timezone.trim()) ? 'UTC' : input.timezone.trim() };
}

const read = (param: 'start_date' | 'end_date', value: unknown, zone: Zone) =>
  readDateParam(param, value, zone);

/**
 * Works out start and end from a create or a partial update: absent dates keep their wall time (read
 * in the possibly new zone), `all_day` widens to whole days, and an end before the start is a 400.
 */
export function resolveEventTimes(input: TimesInput, current?: EventTimes): EventTimes {
  const { zone, name } = zoneFrom(input, current);
  let start = read('start_date', input.start_date ?? current?.start, zone);
  let end = read('end_date', input.end_date ?? current?.end, zone);
  const allDay = input.all_day ?? current?.allDay ?? false;
  if (allDay) {
    start = start.startOf('day');
    end = end.endOf('day').set({ millisecond: 0 });
  }
  if (end < start)
    throw invalidParam('end_date', 'end_date must not be before start_date.', 'rest_end_before_start');
  return {
    start: wall(start),
    end: wall(end),
    utcStart: utcWall(start),
    utcEnd: utcWall(end),
    timezone: name,
    timezoneAbbr: zoneAbbr(start),
    allDay,
  };
}
