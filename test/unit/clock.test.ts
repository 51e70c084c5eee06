import { DateTime, Info } from 'luxon';
import { describe, expect, it } from 'vitest';
import { nowStamps, wallClock } from '../../shared/domain/clock';
import { resolveZone, utcWall, wall } from '../../shared/domain/dates';

/** What the luxon-based dates.ts shows for an instant in a configured zone (UTC when it is none). */
const luxonWall = (name: string, at: Date) =>
  wall(DateTime.fromJSDate(at).setZone(resolveZone(name) ?? Info.normalizeZone('UTC')!));

const ZONES = [
  'UTC',
  'utc',
  'GMT',
  ' Europe/Berlin ',
  'America/New_York',
  'Asia/Kolkata',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'Etc/GMT+3',
  'UTC+2',
  'UTC-5:30',
  'utc-0:30',
  'UTC+14',
  'UTC+15',
  'Not/AZone',
  'garbage',
  '',
];

const INSTANTS = [
  '2026-11-25T08:40:33.900Z',
  '2026-03-29T00:59:59Z', // the second before Berlin's clocks go forward
  '2026-03-29T01:00:00Z',
  '2026-10-25T00:59:59Z', // and before they go back
  '2026-10-25T01:00:00Z',
  '2026-12-31T23:59:59Z',
  '2028-02-29T12:00:00Z',
].map((s) => new Date(s));

describe('wall clock without luxon (shared/domain/clock.ts)', () => {
  it.each(ZONES)('shows what dates.ts shows for %j', (name) => {
    for (const at of INSTANTS) expect(wallClock(name)(at)).toBe(luxonWall(name, at));
  });

  it('stamps a write with the site zone and UTC of one instant', () => {
    const at = new Date('2026-07-01T22:30:00Z');
    expect(nowStamps(at)).toEqual({
      modified: luxonWall(process.env.SITE_TIMEZONE ?? 'UTC', at),
      modified_utc: utcWall(DateTime.fromJSDate(at)),
    });
  });
});
