import { describe, expect, it } from 'vitest';
import { DomainError } from '../../shared/domain/errors';
import { intlTimes } from '../../shared/domain/intl-times';
import { withTimeMaths } from '../../shared/domain/time-maths';
import { expandSeries, MAX_OCCURRENCES, type SeriesTimes } from '../../shared/domain/recurrence';

const maths = intlTimes();
const timed = (start: string, hours = 2): SeriesTimes => {
  const end = new Date(Date.parse(`${start.replace(' ', 'T')}Z`) + hours * 3_600_000);
  return { start, end: end.toISOString().slice(0, 19).replace('T', ' '), allDay: false };
};
const series = (zone: string, lines: string[], times: SeriesTimes, horizon = '2027-12-31 23:59:59') =>
  expandSeries(maths, maths.zone(zone)!, lines, times, horizon);
const starts = (...args: Parameters<typeof series>) => series(...args).occurrences.map((o) => o.start);
/** An occurrence's start as a UTC instant, placed in the zone as an event's wall time is. */
const utc = (zone: string, wall: string) =>
  new Date(maths.ms(maths.read('start', wall, maths.zone(zone)!))).toISOString();

function reason(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return String((e.data.params as Record<string, string>).recurrence);
    throw e;
  }
  throw new Error('expected a 400');
}

describe('series in wall time', () => {
  it('keeps 19:00 across both US daylight-saving changes', () => {
    const got = starts(
      'America/New_York',
      ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=40'],
      timed('2026-02-24 19:00:00'),
    );
    expect(got.every((s) => s.endsWith(' 19:00:00'))).toBe(true);
    expect(utc('America/New_York', got[1]!)).toBe('2026-03-04T00:00:00.000Z'); // EST: UTC-5
    expect(utc('America/New_York', got[2]!)).toBe('2026-03-10T23:00:00.000Z'); // EDT from March 8
    expect(utc('America/New_York', got[36]!)).toBe('2026-11-04T00:00:00.000Z'); // November 3: EST again since the 1st
  });

  it('places an occurrence on the last Sunday of March in Berlin as a single event is placed', () => {
    const got = starts(
      'Europe/Berlin',
      ['RRULE:FREQ=MONTHLY;BYDAY=-1SU;COUNT=4'],
      timed('2026-01-25 02:30:00'),
    );
    expect(got).toEqual([
      '2026-01-25 02:30:00',
      '2026-02-22 02:30:00',
      '2026-03-29 02:30:00',
      '2026-04-26 02:30:00',
    ]);
    // 02:30 does not exist that night: the hour moves forward, to 03:30 CEST.
    expect(utc('Europe/Berlin', got[2]!)).toBe('2026-03-29T01:30:00.000Z');
  });

  it('repeats February 29 in leap years only', () => {
    const got = starts(
      'Europe/Berlin',
      ['RRULE:FREQ=YEARLY;COUNT=3'],
      timed('2028-02-29 10:00:00'),
      '2040-01-01 00:00:00',
    );
    expect(got).toEqual(['2028-02-29 10:00:00', '2032-02-29 10:00:00', '2036-02-29 10:00:00']);
  });

  it('takes the last weekday of each month with BYSETPOS=-1', () => {
    const lines = ['RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=4'];
    const got = starts('Asia/Kolkata', lines, timed('2026-01-30 18:00:00'));
    expect(got).toEqual([
      '2026-01-30 18:00:00',
      '2026-02-27 18:00:00',
      '2026-03-31 18:00:00',
      '2026-04-30 18:00:00',
    ]);
  });

  it('sets weekly BYSETPOS within weeks starting on WKST', () => {
    const lines = ['RRULE:FREQ=WEEKLY;BYDAY=MO,TH;BYSETPOS=1;COUNT=3'];
    // Monday is each week's first of the two days.
    expect(starts('Europe/Berlin', lines, timed('2026-01-05 09:00:00'))).toEqual([
      '2026-01-05 09:00:00',
      '2026-01-12 09:00:00',
      '2026-01-19 09:00:00',
    ]);
    // With weeks starting on Tuesday, Thursday comes first.
    expect(starts('Europe/Berlin', [`${lines[0]};WKST=TU`], timed('2026-01-08 09:00:00'))).toEqual([
      '2026-01-08 09:00:00',
      '2026-01-15 09:00:00',
      '2026-01-22 09:00:00',
    ]);
  });

  it('removes an EXDATE on a daylight-saving day, given in the zone or in UTC', () => {
    const lines = [
      'RRULE:FREQ=WEEKLY;BYDAY=SU;UNTIL=20261108',
      'EXDATE;TZID=America/New_York:20260308T100000', // the day EDT starts
      'EXDATE:20261101T150000Z', // 10:00 EST, the day EST comes back
    ];
    const got = starts('America/New_York', lines, timed('2026-03-01 10:00:00'));
    expect(got).not.toContain('2026-03-08 10:00:00');
    expect(got).not.toContain('2026-11-01 10:00:00');
    expect(got).toContain('2026-03-15 10:00:00');
    expect(got.at(-1)).toBe('2026-11-08 10:00:00');
  });

  it('reads UNTIL as a date (its whole day) or as a UTC time (its wall time in the zone)', () => {
    const t = timed('2026-06-01 19:00:00');
    const byDate = starts('Europe/Berlin', ['RRULE:FREQ=DAILY;UNTIL=20260605'], t);
    expect(byDate.at(-1)).toBe('2026-06-05 19:00:00');
    // 17:00 UTC is 19:00 in Berlin in summer: that day's occurrence is in, 16:59 UTC leaves it out.
    expect(starts('Europe/Berlin', ['RRULE:FREQ=DAILY;UNTIL=20260605T170000Z'], t).at(-1)).toBe(
      '2026-06-05 19:00:00',
    );
    expect(starts('Europe/Berlin', ['RRULE:FREQ=DAILY;UNTIL=20260605T165900Z'], t).at(-1)).toBe(
      '2026-06-04 19:00:00',
    );
  });

  it('counts the start as the first occurrence even where the rule does not produce it (RFC 5545)', () => {
    // 2026-01-01 is a Thursday.
    const got = starts('UTC', ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=3'], timed('2026-01-01 19:00:00'));
    expect(got).toEqual(['2026-01-01 19:00:00', '2026-01-06 19:00:00', '2026-01-13 19:00:00']);
  });

  it('adds RDATEs and keeps each occurrence as long as the first, all-day ones by date', () => {
    const multi = series(
      'UTC',
      ['RRULE:FREQ=MONTHLY;COUNT=2', 'RDATE:20260320T180000'],
      timed('2026-01-10 18:00:00', 50),
    );
    expect(multi.occurrences).toEqual([
      { start: '2026-01-10 18:00:00', end: '2026-01-12 20:00:00' },
      { start: '2026-02-10 18:00:00', end: '2026-02-12 20:00:00' },
      { start: '2026-03-20 18:00:00', end: '2026-03-22 20:00:00' },
    ]);
    const allDay = { start: '2026-07-01 00:00:00', end: '2026-07-02 23:59:59', allDay: true };
    const festival = series(
      'Europe/Berlin',
      ['RRULE:FREQ=DAILY;COUNT=4', 'EXDATE;VALUE=DATE:20260703'],
      allDay,
    );
    expect(festival.occurrences.map((o) => o.start.slice(0, 10))).toEqual([
      '2026-07-01',
      '2026-07-02',
      '2026-07-04',
    ]);
    expect(festival.occurrences[2]!.end).toBe('2026-07-05 23:59:59');
  });

  it('says whether the series goes on past the horizon', () => {
    const t = timed('2026-01-06 19:00:00');
    expect(series('UTC', ['RRULE:FREQ=WEEKLY'], t).ended).toBe(false);
    expect(series('UTC', ['RRULE:FREQ=WEEKLY;COUNT=5'], t).ended).toBe(true);
    expect(series('UTC', ['RRULE:FREQ=WEEKLY;COUNT=500'], t).ended).toBe(false);
    expect(series('UTC', ['RRULE:FREQ=WEEKLY;UNTIL=20270101'], t).ended).toBe(true);
    expect(series('UTC', ['RRULE:FREQ=WEEKLY;UNTIL=20300101'], t).ended).toBe(false);
  });

  it('words the rule in English', () => {
    const t = timed('2026-01-06 19:00:00');
    expect(series('UTC', ['RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20270630'], t).text).toBe(
      'Every week on Tuesday at 7 PM until June 30, 2027',
    );
    expect(series('UTC', ['RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=5'], timed('2026-01-30 19:00:00')).text).toBe(
      'Every month on last Friday at 7 PM for 5 times',
    );
  });
});

describe('recurrence lines refused, with a reason', () => {
  const t = timed('2026-01-06 19:00:00');
  const refused = (lines: string[]) => reason(() => series('Europe/Berlin', lines, t));

  it.each([
    [['RRULE:FREQ=HOURLY'], /FREQ=HOURLY is not supported/],
    [['RRULE:FREQ=DAILY;BYHOUR=9'], /BYHOUR is not supported/],
    [['RRULE:FREQ=WEEKLY;BYDAY=XX'], /"XX" is not one of MO/],
    [['RRULE:FREQ=WEEKLY;BYDAY=1MO'], /ordinal day needs FREQ=MONTHLY or YEARLY/],
    [['RRULE:FREQ=DAILY;COUNT=0'], /at least one event/],
    [['RRULE:FREQ=DAILY;COUNT=3;UNTIL=20260301'], /COUNT or UNTIL, not both/],
    [['RRULE:FREQ=DAILY;UNTIL=20251231'], /before the event's start/],
    [['RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30'], /yields no date/],
    [['RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=31'], /yields no date/],
    [['RRULE:INTERVAL=2'], /needs FREQ/],
    [['RRULE:FREQ=DAILY', 'RRULE:FREQ=WEEKLY'], /one RRULE/],
    [['EXDATE:20260113T190000'], /needs an RRULE or RDATE/],
    [['RRULE FREQ=DAILY'], /not a content line/],
    [['DTSTART:20260101T100000'], /DTSTART lines are not supported/],
    [['RRULE:FREQ=DAILY', 'EXDATE:20261340T000000'], /not a real date/],
    [['RRULE:FREQ=DAILY', 'EXDATE;X-FOO=1:20260110T190000'], /parameter "X-FOO=1" is not supported/],
    [['RRULE:FREQ=DAILY;COUNT=1', 'EXDATE:20260106T190000'], /excluded by an EXDATE/],
  ])('%j', (lines, why) => {
    expect(refused(lines)).toMatch(why);
  });

  it('refuses a TZID no time zone database knows', async () => {
    const lines = ['RRULE:FREQ=DAILY', 'EXDATE;TZID=Mars/Olympus:20260110T190000'];
    // Intl leaves names it does not know to luxon: the service expands with withTimeMaths, so do this.
    const expand = withTimeMaths((m) => expandSeries(m, m.zone('UTC')!, lines, t, '2026-12-31 23:59:59'));
    await expect(expand).rejects.toMatchObject({
      data: { params: { recurrence: expect.stringMatching(/not an IANA time zone/) } },
    });
  });

  it(`refuses more than ${MAX_OCCURRENCES} occurrences within the horizon`, () => {
    const daily = () => series('Europe/Berlin', ['RRULE:FREQ=DAILY'], t, '2029-12-31 23:59:59');
    expect(reason(daily)).toMatch(/more than 1000 events before 2029-12-31/);
    expect(reason(() => series('UTC', ['RRULE:FREQ=DAILY'], timed('1990-01-01 10:00:00')))).toMatch(
      /more than 1000/,
    );
  });
});
