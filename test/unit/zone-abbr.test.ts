import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { zoneAbbr } from '../../shared/domain/dates';
import { resolveEventTimes } from '../../shared/domain/event-times';
import { tzAbbr } from '../../shared/domain/zone-abbr';

/**
 * `timezone_abbr` as the reference gives it, PHP's `T`: the tz database's abbreviation (issue 39,
 * decisions §9). Intl names offsets instead (`GMT-3`), so both date paths read the generated table.
 */
const CASES: Array<[zone: string, wall: string, abbr: string]> = [
  ['Europe/London', '2027-01-15 10:00:00', 'GMT'],
  ['Europe/London', '2027-07-15 10:00:00', 'BST'],
  ['America/Argentina/Buenos_Aires', '2027-01-15 10:00:00', '-03'],
  ['America/Buenos_Aires', '2027-01-15 10:00:00', '-03'],
  ['Asia/Kathmandu', '2027-01-15 10:00:00', '+0545'],
  ['Asia/Kolkata', '2027-01-15 10:00:00', 'IST'],
  ['Asia/Calcutta', '2027-01-15 10:00:00', 'IST'],
  ['Asia/Dubai', '2027-01-15 10:00:00', '+04'],
  ['America/Sao_Paulo', '2027-07-15 10:00:00', '-03'],
  ['Europe/Dublin', '2027-07-15 10:00:00', 'IST'],
  ['Europe/Berlin', '2027-07-15 10:00:00', 'CEST'],
  ['America/New_York', '2027-01-15 10:00:00', 'EST'],
  ['Australia/Sydney', '2027-01-15 10:00:00', 'AEDT'],
  ['Asia/Tokyo', '2027-01-15 10:00:00', 'JST'],
  ['Pacific/Chatham', '2027-01-15 10:00:00', '+1345'],
  ['America/St_Johns', '2027-01-15 10:00:00', 'NST'],
  ['Atlantic/Azores', '2027-01-15 10:00:00', '-01'],
  ['UTC', '2027-01-15 10:00:00', 'UTC'],
  ['UTC+2', '2027-01-15 10:00:00', 'UTC+2'],
  ['UTC-5:30', '2027-01-15 10:00:00', 'UTC-5:30'],
];

describe('timezone abbreviations of the tz database', () => {
  it.each(CASES)('names %s at %s %s (Y-m-d H:i:s, read with Intl)', async (timezone, wall, abbr) => {
    const t = await resolveEventTimes({ start_date: wall, end_date: wall, timezone });

    expect(t.timezoneAbbr).toBe(abbr);
  });

  it.each(CASES)('names %s at %s %s (read with luxon)', (timezone, wall, abbr) => {
    const dt = DateTime.fromFormat(wall, 'yyyy-MM-dd HH:mm:ss', { zone: timezone });

    expect(zoneAbbr(dt)).toBe(abbr);
  });

  it('writes an offset the database does not name as it does: sign, hours, minutes when not zero', () => {
    expect([
      tzAbbr('Asia/Dubai', 240),
      tzAbbr('Asia/Kathmandu', 345),
      tzAbbr('America/Noronha', -120),
    ]).toEqual(['+04', '+0545', '-02']);
  });

  it('reads a zone name in any case, and leaves a fixed offset to its caller', () => {
    expect([tzAbbr('europe/london', 0), tzAbbr('UTC+2', 120)]).toEqual(['GMT', undefined]);
  });
});
