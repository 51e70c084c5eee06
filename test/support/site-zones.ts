import { afterAll, vi } from 'vitest';

/**
 * Site zones and instants for the tests that hold an `Intl` path equal to luxon's (a date computed
 * without loading the time-zone library): daylight-saving changes at 02:00 and at midnight, the
 * zones furthest east and west, odd offsets, fixed offsets and names that are no zone.
 */
export const SITE_ZONES = [
  'UTC',
  'Europe/Berlin',
  'America/New_York',
  'America/Santiago', // its clocks change at midnight
  'Asia/Kolkata',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'Pacific/Kiritimati', // UTC+14
  'Pacific/Pago_Pago', // UTC-11
  'UTC+2',
  'UTC-5:30',
  'UTC+15', // not a zone dates.ts accepts: UTC
  'Not/AZone',
];

export const SITE_INSTANTS = [
  '2026-11-25T08:40:33.900Z',
  '2026-03-29T00:59:59.999Z', // the last moment before Berlin's clocks go forward
  '2026-03-29T01:00:00Z',
  '2026-10-25T00:59:59Z', // and before they go back
  '2026-10-25T01:00:00.001Z',
  '2026-09-06T03:59:59Z', // Santiago's midnight change
  '2026-09-06T04:00:00Z',
  '2026-01-31T12:00:00Z', // 24 months ahead is a 31st too
  '2026-08-31T23:30:00Z', // a 31st in the west, the 1st in the east
  '2028-02-29T12:00:00Z', // two years later there is no 29 February
  '2026-02-28T23:59:59Z',
  '2026-12-31T23:59:59Z',
  '2027-01-01T00:00:00Z',
].map((s) => new Date(s));

/**
 * Makes the next imports load afresh, as a cold function loads them, with SITE_TIMEZONE set to `zone`
 * (config reads it then). The file's zone is restored after it.
 */
export function asSite(zone: string): void {
  process.env.SITE_TIMEZONE = zone;
  vi.resetModules();
}

const saved = process.env.SITE_TIMEZONE;
afterAll(() => {
  process.env.SITE_TIMEZONE = saved;
  vi.resetModules();
});
