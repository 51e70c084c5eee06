import { beforeAll, describe, expect, it } from 'vitest';
import { asApiError } from '../../shared/http/errors';
import { type EventTimes, resolveEventTimes } from '../../shared/domain/event-times';

/** Start, end, UTC and zone of an event from a create or a partial update (site time zone UTC). */
const problem = async (fn: () => Promise<unknown>) => {
  try {
    await fn();
  } catch (e) {
    const api = asApiError(e);
    if (api) return { status: api.status, params: Object.keys(api.toBody().data.params as object) };
    throw e;
  }
  throw new Error('expected a 400');
};

describe('resolveEventTimes on create', () => {
  it('reads wall times in the site time zone (UTC) when no zone is given', async () => {
    const t = await resolveEventTimes({ start_date: '2027-01-15 20:00:00', end_date: '2027-01-15 23:00:00' });

    expect(t).toEqual({
      start: '2027-01-15 20:00:00',
      end: '2027-01-15 23:00:00',
      utcStart: '2027-01-15 20:00:00',
      utcEnd: '2027-01-15 23:00:00',
      timezone: 'UTC',
      timezoneAbbr: 'UTC',
      allDay: false,
    });
  });

  it.each([
    ['Y-m-d H:i', '2027-09-01 19:00', '2027-09-01 19:00:00'],
    ['Y-m-d', '2027-09-01', '2027-09-01 00:00:00'],
    ['ISO 8601 without offset', '2027-09-01T19:00:00', '2027-09-01 19:00:00'],
    ['ISO 8601 with Z', '2027-09-01T19:00:00Z', '2027-09-01 19:00:00'],
    ['a Unix timestamp string', '1819825200', '2027-09-01 19:00:00'],
  ])('accepts %s', async (_label, input, wallTime) => {
    const t = await resolveEventTimes({ start_date: input, end_date: '2027-09-02 00:00:00' });

    expect(t.start).toBe(wallTime);
  });

  it('accepts a numeric Unix timestamp', async () => {
    const t = await resolveEventTimes({ start_date: 1800000000, end_date: 1800003600 });

    expect([t.start, t.end]).toEqual(['2027-01-15 08:00:00', '2027-01-15 09:00:00']);
  });

  it('reads New York wall times as EST in winter (sample 024)', async () => {
    const t = await resolveEventTimes({
      start_date: '2027-03-05 09:00:00',
      end_date: '2027-03-05 10:30:00',
      timezone: 'America/New_York',
    });

    expect(t).toMatchObject({
      start: '2027-03-05 09:00:00',
      utcStart: '2027-03-05 14:00:00',
      utcEnd: '2027-03-05 15:30:00',
      timezone: 'America/New_York',
      timezoneAbbr: 'EST',
    });
  });

  it('reads New York wall times as EDT in summer, across the UTC date line', async () => {
    const t = await resolveEventTimes({
      start_date: '2027-07-04 20:00:00',
      end_date: '2027-07-04 22:00:00',
      timezone: 'America/New_York',
    });

    expect(t).toMatchObject({
      utcStart: '2027-07-05 00:00:00',
      utcEnd: '2027-07-05 02:00:00',
      timezoneAbbr: 'EDT',
    });
  });

  it('moves a Berlin event that starts after local midnight to the previous UTC day (sample 025)', async () => {
    const t = await resolveEventTimes({
      start_date: '2027-03-07 00:30:00',
      end_date: '2027-03-07 02:00:00',
      timezone: 'Europe/Berlin',
    });

    expect(t).toMatchObject({
      start: '2027-03-07 00:30:00',
      utcStart: '2027-03-06 23:30:00',
      utcEnd: '2027-03-07 01:00:00',
      timezoneAbbr: 'CET',
    });
  });

  it('spans the Berlin spring-forward night (2027-03-28): 01:30 CET to 03:30 CEST is one hour', async () => {
    const t = await resolveEventTimes({
      start_date: '2027-03-28 01:30:00',
      end_date: '2027-03-28 03:30:00',
      timezone: 'Europe/Berlin',
    });

    expect(t).toMatchObject({
      utcStart: '2027-03-28 00:30:00',
      utcEnd: '2027-03-28 01:30:00',
      timezoneAbbr: 'CET',
    });
  });

  it('names the summer abbreviation for a Berlin event after the change', async () => {
    const t = await resolveEventTimes({
      start_date: '2027-03-28 03:30:00',
      end_date: '2027-03-28 04:30:00',
      timezone: 'Europe/Berlin',
    });

    expect(t).toMatchObject({ utcStart: '2027-03-28 01:30:00', timezoneAbbr: 'CEST' });
  });

  it('moves a wall time that does not exist (02:30 on 2027-03-28 in Berlin) forward by the gap, as PHP does', async () => {
    const t = await resolveEventTimes({
      start_date: '2027-03-28 02:30:00',
      end_date: '2027-03-28 04:00:00',
      timezone: 'Europe/Berlin',
    });

    expect(t).toMatchObject({ start: '2027-03-28 03:30:00', utcStart: '2027-03-28 01:30:00' });
  });

  it('keeps the written length of an event starting in a gap: its end moves with the start (issue 43)', async () => {
    const t = await resolveEventTimes({
      start_date: '2027-03-14 02:30:00',
      end_date: '2027-03-14 03:30:00',
      timezone: 'America/New_York',
    });
    expect(t).toMatchObject({
      start: '2027-03-14 03:30:00',
      end: '2027-03-14 04:30:00',
      utcStart: '2027-03-14 07:30:00',
      utcEnd: '2027-03-14 08:30:00',
    });
    // An end in the gap too has moved as far already; an instant end is left where it was sent.
    const inGap = await resolveEventTimes({
      start_date: '2027-03-14 02:15',
      end_date: '2027-03-14 02:45',
      timezone: 'America/New_York',
    });
    expect(inGap).toMatchObject({ start: '2027-03-14 03:15:00', end: '2027-03-14 03:45:00' });
    const instant = await resolveEventTimes({
      start_date: '2027-03-14 02:30:00',
      end_date: '2027-03-14T09:00:00Z',
      timezone: 'America/New_York',
    });
    expect(instant).toMatchObject({ start: '2027-03-14 03:30:00', utcEnd: '2027-03-14 09:00:00' });
  });

  it('spans the Berlin fall-back night (2027-10-31): 01:30 CEST to 03:30 CET is three hours', async () => {
    const t = await resolveEventTimes({
      start_date: '2027-10-31 01:30:00',
      end_date: '2027-10-31 03:30:00',
      timezone: 'Europe/Berlin',
    });

    expect(t).toMatchObject({
      utcStart: '2027-10-30 23:30:00',
      utcEnd: '2027-10-31 02:30:00',
      timezoneAbbr: 'CEST',
    });
  });

  it('spans the New York spring-forward night (2027-03-14)', async () => {
    const t = await resolveEventTimes({
      start_date: '2027-03-14 01:30:00',
      end_date: '2027-03-14 03:30:00',
      timezone: 'America/New_York',
    });

    expect(t).toMatchObject({
      utcStart: '2027-03-14 06:30:00',
      utcEnd: '2027-03-14 07:30:00',
      timezoneAbbr: 'EST',
    });
  });

  it('spans the New York fall-back night (2027-11-07)', async () => {
    const t = await resolveEventTimes({
      start_date: '2027-11-07 00:30:00',
      end_date: '2027-11-07 03:30:00',
      timezone: 'America/New_York',
    });

    expect(t).toMatchObject({
      utcStart: '2027-11-07 04:30:00',
      utcEnd: '2027-11-07 08:30:00',
      timezoneAbbr: 'EDT',
    });
  });

  it.each([
    ['UTC+2', '2027-01-15 08:00:00', 'UTC+2'],
    ['UTC-5', '2027-01-15 15:00:00', 'UTC-5'],
    ['UTC-5:30', '2027-01-15 15:30:00', 'UTC-5:30'],
    ['UTC+05:30', '2027-01-15 04:30:00', 'UTC+5:30'],
  ])('reads wall times in the fixed offset %s', async (zone, utcStart, abbr) => {
    const t = await resolveEventTimes({
      start_date: '2027-01-15 10:00:00',
      end_date: '2027-01-15 11:00:00',
      timezone: zone,
    });

    expect(t).toMatchObject({ start: '2027-01-15 10:00:00', utcStart, timezone: zone, timezoneAbbr: abbr });
  });

  it('names the Tokyo zone JST (sample 168)', async () => {
    const t = await resolveEventTimes({
      start_date: '2027-09-01 19:00',
      end_date: '2027-09-01 21:00',
      timezone: 'Asia/Tokyo',
    });

    expect(t).toMatchObject({
      utcStart: '2027-09-01 10:00:00',
      utcEnd: '2027-09-01 12:00:00',
      timezoneAbbr: 'JST',
    });
  });

  it('spells the UTC zone UTC whatever its case', async () => {
    expect(
      (await resolveEventTimes({ start_date: '2027-01-15', end_date: '2027-01-15', timezone: 'utc' }))
        .timezone,
    ).toBe('UTC');
  });

  it('converts an input with an explicit offset into the event zone', async () => {
    const t = await resolveEventTimes({
      start_date: '2027-01-15T19:00:00-05:00',
      end_date: '2027-01-15T21:00:00-05:00',
      timezone: 'Europe/Berlin',
    });

    expect(t).toMatchObject({ start: '2027-01-16 01:00:00', utcStart: '2027-01-16 00:00:00' });
  });

  it('widens an all-day event to whole days (sample 023)', async () => {
    const t = await resolveEventTimes({ start_date: '2027-02-10', end_date: '2027-02-10', all_day: true });

    expect(t).toMatchObject({ start: '2027-02-10 00:00:00', end: '2027-02-10 23:59:59', allDay: true });
  });

  it('widens a multi-day all-day event from its first to its last day, dropping the times', async () => {
    const t = await resolveEventTimes({
      start_date: '2027-02-10 15:00',
      end_date: '2027-02-12 09:00',
      all_day: true,
    });

    expect([t.start, t.end]).toEqual(['2027-02-10 00:00:00', '2027-02-12 23:59:59']);
  });

  it('widens all-day events in the event zone and keeps UTC in step', async () => {
    const t = await resolveEventTimes({
      start_date: '2027-02-10',
      end_date: '2027-02-11',
      all_day: true,
      timezone: 'America/New_York',
    });

    expect(t).toMatchObject({ utcStart: '2027-02-10 05:00:00', utcEnd: '2027-02-12 04:59:59' });
  });

  it('widens an all-day event over the Berlin DST change with the right offset on each end', async () => {
    const t = await resolveEventTimes({
      start_date: '2027-03-27',
      end_date: '2027-03-28',
      all_day: true,
      timezone: 'Europe/Berlin',
    });

    expect(t).toMatchObject({ utcStart: '2027-03-26 23:00:00', utcEnd: '2027-03-28 21:59:59' });
  });

  it('accepts an end equal to the start', async () => {
    const t = await resolveEventTimes({ start_date: '2027-01-15 10:00', end_date: '2027-01-15 10:00' });

    expect(t.end).toBe(t.start);
  });

  it('refuses an end before the start, naming end_date', async () => {
    expect(
      await problem(() =>
        resolveEventTimes({ start_date: '2027-08-02 10:00:00', end_date: '2027-08-01 10:00:00' }),
      ),
    ).toEqual({
      status: 400,
      params: ['end_date'],
    });
  });

  it('compares instants, not wall times, across zones: an end before the start in UTC is refused', async () => {
    const call = () =>
      resolveEventTimes({
        start_date: '2027-01-15T10:00:00+00:00',
        end_date: '2027-01-15T10:30:00+02:00',
        timezone: 'UTC',
      });

    expect((await problem(call)).params).toEqual(['end_date']);
  });

  it.each([
    ['start_date', { start_date: 'someday', end_date: '2027-01-15' }],
    ['start_date', { start_date: '2027-02-30', end_date: '2027-03-01' }],
    ['end_date', { start_date: '2027-01-15', end_date: 'tomorrow-ish' }],
    ['end_date', { start_date: '2027-01-15', end_date: '2027-13-01' }],
  ])('refuses an unparseable date, naming %s', async (param, input) => {
    expect((await problem(() => resolveEventTimes(input))).params).toEqual([param]);
  });

  it.each(['Mars/Olympus', 'UTC+99', 'EST5EDT6'])(
    'refuses the unknown time zone %s, naming timezone',
    async (zone) => {
      expect(
        (
          await problem(() =>
            resolveEventTimes({ start_date: '2027-01-15', end_date: '2027-01-15', timezone: zone }),
          )
        ).params,
      ).toEqual(['timezone']);
    },
  );
});

describe('resolveEventTimes on update', () => {
  let current: EventTimes;
  beforeAll(async () => {
    current = await resolveEventTimes({
      start_date: '2027-05-20 19:00:00',
      end_date: '2027-05-20 23:30:00',
      timezone: 'America/New_York',
    });
  });

  it('keeps everything when nothing is sent', async () => {
    expect(await resolveEventTimes({}, current)).toEqual(current);
  });

  it('keeps the end when only the start moves', async () => {
    const t = await resolveEventTimes({ start_date: '2027-05-20 18:00:00' }, current);

    expect(t).toMatchObject({
      start: '2027-05-20 18:00:00',
      end: '2027-05-20 23:30:00',
      timezone: 'America/New_York',
    });
  });

  it('refuses a new start after the kept end, naming end_date', async () => {
    expect(
      (await problem(() => resolveEventTimes({ start_date: '2027-05-21 10:00:00' }, current))).params,
    ).toEqual(['end_date']);
  });

  it('keeps the wall times and moves the instants when only the zone changes', async () => {
    const t = await resolveEventTimes({ timezone: 'Europe/Berlin' }, current);

    expect(t).toMatchObject({
      start: '2027-05-20 19:00:00',
      utcStart: '2027-05-20 17:00:00',
      timezone: 'Europe/Berlin',
      timezoneAbbr: 'CEST',
    });
  });

  it('falls back to the site zone when the zone is cleared with null or ""', async () => {
    for (const timezone of [null, '']) {
      const t = await resolveEventTimes({ timezone }, current);

      expect(t).toMatchObject({
        start: '2027-05-20 19:00:00',
        utcStart: '2027-05-20 19:00:00',
        timezone: 'UTC',
      });
    }
  });

  it('widens the kept dates when all_day is switched on', async () => {
    const t = await resolveEventTimes({ all_day: true }, current);

    expect(t).toMatchObject({ start: '2027-05-20 00:00:00', end: '2027-05-20 23:59:59', allDay: true });
  });

  it('keeps all_day when the dates move', async () => {
    const allDay = await resolveEventTimes({
      start_date: '2027-02-10',
      end_date: '2027-02-10',
      all_day: true,
    });

    const t = await resolveEventTimes({ start_date: '2027-02-12', end_date: '2027-02-13' }, allDay);

    expect(t).toMatchObject({ start: '2027-02-12 00:00:00', end: '2027-02-13 23:59:59', allDay: true });
  });
});
