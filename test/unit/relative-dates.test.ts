import { DateTime, Info } from 'luxon';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseDate, WALL } from '../../shared/domain/dates';
import { parseRelative } from '../../shared/domain/relative-dates';

/** strtotime-style phrases (reference §6.1, samples 061 and 169) and the other accepted date inputs. */
const UTC = Info.normalizeZone('UTC')!;
const NEW_YORK = Info.normalizeZone('America/New_York')!;
const NOW = DateTime.fromISO('2026-11-22T11:49:00Z'); // a Sunday: the reference capture clock

const rel = (input: string, zone = UTC) => parseRelative(input, zone, NOW)?.toFormat(WALL);

describe('parseRelative', () => {
  it.each([
    ['now', '2026-11-22 11:49:00'],
    ['today', '2026-11-22 00:00:00'],
    ['midnight', '2026-11-22 00:00:00'],
    ['noon', '2026-11-22 12:00:00'],
    ['tomorrow', '2026-11-23 00:00:00'],
    ['yesterday', '2026-11-21 00:00:00'],
    ['tomorrow 9am', '2026-11-23 09:00:00'],
    ['tomorrow at 14:30', '2026-11-23 14:30:00'],
    ['today 12am', '2026-11-22 00:00:00'],
    ['today 12pm', '2026-11-22 12:00:00'],
    ['next monday 10am', '2026-11-23 10:00:00'],
    ['next monday 11am', '2026-11-23 11:00:00'],
    ['monday', '2026-11-23 00:00:00'],
    ['sunday', '2026-11-22 00:00:00'],
    ['next sunday', '2026-11-29 00:00:00'],
    ['last sunday', '2026-11-15 00:00:00'],
    ['last friday', '2026-11-20 00:00:00'],
    ['this friday', '2026-11-27 00:00:00'],
    ['+1 week', '2026-11-29 11:49:00'],
    ['+1 year', '2027-11-22 11:49:00'],
    ['+2 years', '2028-11-22 11:49:00'],
    ['-3 days', '2026-11-19 11:49:00'],
    ['2 days ago', '2026-11-20 11:49:00'],
    ['1 fortnight', '2026-12-06 11:49:00'],
    ['+1 month 9am', '2026-12-22 09:00:00'],
    ['3 hours', '2026-11-22 14:49:00'],
  ])('reads "%s"', (input, expected) => {
    expect(rel(input)).toBe(expected);
  });

  it('ignores case and extra spaces', () => {
    expect(rel('  Next   MONDAY 10AM ')).toBe('2026-11-23 10:00:00');
  });

  it('reads the phrase in the given zone: "today" in New York is the New York day', () => {
    expect(rel('today', NEW_YORK)).toBe('2026-11-22 00:00:00');
    expect(parseRelative('today', NEW_YORK, NOW)?.toUTC().toFormat(WALL)).toBe('2026-11-22 05:00:00');
  });

  it('takes "tomorrow" from the zone’s own date, not UTC’s', () => {
    const lateEvening = DateTime.fromISO('2026-11-23T03:00:00Z'); // still the 22nd in New York

    expect(parseRelative('tomorrow', NEW_YORK, lateEvening)?.toFormat(WALL)).toBe('2026-11-23 00:00:00');
  });

  it.each([
    'someday',
    'before my birthday',
    'after my birthday',
    'tomorrow-ish',
    'next blursday',
    'tomorrow 13pm',
    'today 25:00',
    '',
  ])('does not read "%s"', (input) => {
    expect(rel(input)).toBeUndefined();
  });
});

describe('the forms of PHP strtotime that clients of the reference send (issue 39, decisions §9)', () => {
  // PHP's answers, at NOW (Sunday 2026-11-22 11:49 UTC, 06:49 in New York).
  it.each([
    ['m/d/Y with a 12-hour time', '03/15/2027 7pm', UTC, '2027-03-15 19:00:00'],
    ['m/d/Y', '03/15/2027', UTC, '2027-03-15 00:00:00'],
    ['d.m.Y with a time', '15.03.2027 19:00', UTC, '2027-03-15 19:00:00'],
    ['RFC 2822', 'Mon, 15 Mar 2027 19:00:00 +0000', UTC, '2027-03-15 19:00:00'],
    ['RFC 2822 with an offset', 'Mon, 15 Mar 2027 19:00:00 -0500', UTC, '2027-03-16 00:00:00'],
    ['RFC 2822 in GMT', 'Mon, 15 Mar 2027 19:00:00 GMT', UTC, '2027-03-15 19:00:00'],
    ['a textual date', '15 March 2027 7:30pm', UTC, '2027-03-15 19:30:00'],
    ['tomorrow noon', 'tomorrow noon', UTC, '2026-11-23 12:00:00'],
    ['+1 week 2 hours', '+1 week 2 hours', UTC, '2026-11-29 13:49:00'],
    ['last day of next month', 'last day of next month', UTC, '2026-12-31 11:49:00'],
    ['first day of next month', 'first day of next month', UTC, '2026-12-01 11:49:00'],
    ['next monday on a Monday: a week on', 'next monday', UTC, '2026-11-23 00:00:00'],
    ['this sunday on a Sunday: today', 'this sunday', UTC, '2026-11-22 00:00:00'],
    // In the event's zone: wall times are New York's, relative phrases count from New York's now.
    ['m/d/Y in New York', '03/15/2027 7pm', NEW_YORK, '2027-03-15 19:00:00'],
    [
      'RFC 2822 converted to New York (summer time)',
      'Mon, 15 Mar 2027 19:00:00 +0000',
      NEW_YORK,
      '2027-03-15 15:00:00',
    ],
    [
      'RFC 2822 in GMT, converted to New York',
      'Mon, 15 Mar 2027 19:00:00 GMT',
      NEW_YORK,
      '2027-03-15 15:00:00',
    ],
    ['RFC 2822 in EST', 'Mon, 15 Mar 2027 19:00:00 EST', UTC, '2027-03-16 00:00:00'],
    ['tomorrow noon in New York', 'tomorrow noon', NEW_YORK, '2026-11-23 12:00:00'],
    ['+1 week 2 hours in New York', '+1 week 2 hours', NEW_YORK, '2026-11-29 08:49:00'],
    ['last day of next month in New York', 'last day of next month', NEW_YORK, '2026-12-31 06:49:00'],
  ])('reads %s: "%s"', (_label, input, zone, expected) => {
    expect(rel(input, zone)).toBe(expected);
  });

  it('reads "next monday" on a Monday as the Monday after, as PHP does', () => {
    const monday = DateTime.fromISO('2026-11-23T11:00:00Z');
    expect(parseRelative('next monday', UTC, monday)?.toFormat(WALL)).toBe('2026-11-30 00:00:00');
    expect(parseRelative('monday', UTC, monday)?.toFormat(WALL)).toBe('2026-11-23 00:00:00');
    expect(parseRelative('last monday', UTC, monday)?.toFormat(WALL)).toBe('2026-11-16 00:00:00');
  });

  it.each([
    ['2027-02-30 10:00'],
    ['02/30/2027'],
    ['02/30/2027 7pm'],
    ['30.02.2027 19:00'],
    ['31.04.2027'],
    ['30 February 2027'],
    ['Feb 30, 2027'],
    ['Tue, 30 Feb 2027 19:00:00 +0000'],
    ['13/15/2027'],
    ['tomorrow 25:00'],
  ])('refuses the impossible "%s" (PHP moves it on; decisions §9 keeps the 400)', (input) => {
    expect(rel(input)).toBeUndefined();
  });
});

describe('parseDate', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const at = (input: unknown, zone = UTC) => parseDate(input, zone)?.toFormat(WALL);

  it.each([
    ['Y-m-d H:i:s', '2027-01-15 20:00:00', '2027-01-15 20:00:00'],
    ['Y-m-d H:i', '2027-01-15 20:00', '2027-01-15 20:00:00'],
    ['Y-m-d', '2027-01-15', '2027-01-15 00:00:00'],
    ['ISO 8601', '2027-01-15T20:00:00', '2027-01-15 20:00:00'],
    ['ISO 8601 with milliseconds and Z', '2027-01-15T20:00:00.000Z', '2027-01-15 20:00:00'],
    ['ISO 8601 with an offset', '2027-01-15T19:00:00-05:00', '2027-01-16 00:00:00'],
    ['a timestamp string', '1800000000', '2027-01-15 08:00:00'],
    ['a timestamp number', 1800000000, '2027-01-15 08:00:00'],
  ])('reads %s', (_label, input, expected) => {
    expect(at(input)).toBe(expected);
  });

  it('reads wall times in the given zone and converts explicit offsets into it', () => {
    expect(parseDate('2027-01-15 20:00:00', NEW_YORK)?.toUTC().toFormat(WALL)).toBe('2027-01-16 01:00:00');
    expect(at('2027-01-15T20:00:00Z', NEW_YORK)).toBe('2027-01-15 15:00:00');
  });

  it.each([
    ['an impossible day', '2027-02-30'],
    ['an impossible m/d/Y day', '02/30/2027 7pm'],
    ['an impossible month', '2027-13-01'],
    ['an impossible hour', '2027-01-15 25:00:00'],
    ['words', 'not-a-date'],
    ['an empty string', ''],
    ['an object', { date: '2027-01-15' }],
    ['a boolean', true],
    ['infinity', Number.POSITIVE_INFINITY],
  ])('refuses %s', (_label, input) => {
    expect(at(input)).toBeUndefined();
  });

  it('reads relative phrases against the current clock (sample 169)', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-22T11:49:00Z'));

    expect(at('next monday 10am')).toBe('2026-11-23 10:00:00');
  });
});
