import { afterAll, describe, expect, it, vi } from 'vitest';

/**
 * The default listing's window comes from the site's date without luxon (shared/domain/list-window.ts,
 * issue 9); every other window is read by event-window.ts. The two must agree on the default window
 * for any site zone and instant: month ends, leap days and daylight-saving changes included.
 */
const ZONES = [
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

const INSTANTS = [
  '2026-11-25T08:40:33.900Z',
  '2026-03-29T00:59:59.999Z',
  '2026-03-29T01:00:00Z',
  '2026-10-25T00:59:59Z',
  '2026-09-06T03:59:59Z',
  '2026-09-06T04:00:00Z',
  '2026-01-31T12:00:00Z', // 24 months ahead is a 31st too
  '2026-08-31T23:30:00Z', // a 31st in the west, the 1st in the east
  '2028-02-29T12:00:00Z', // two years later there is no 29 February
  '2026-02-28T23:59:59Z',
  '2026-12-31T23:59:59Z',
  '2027-01-01T00:00:00Z',
].map((s) => new Date(s));

/** The modules as a cold function loads them with SITE_TIMEZONE set to `zone` (config reads it then). */
async function site(zone: string) {
  process.env.SITE_TIMEZONE = zone;
  vi.resetModules();
  return {
    luxon: await import('luxon'),
    luxonWindow: await import('../../shared/domain/event-window'),
    window: await import('../../shared/domain/list-window'),
  };
}

const saved = process.env.SITE_TIMEZONE;
afterAll(() => {
  process.env.SITE_TIMEZONE = saved;
  vi.resetModules();
});

describe('the default window without luxon', () => {
  it.each(ZONES)('equals the one event-window.ts reads in %j', async (zone) => {
    const m = await site(zone);
    for (const at of INSTANTS)
      expect(m.window.defaultWindow(at), `${zone} at ${at.toISOString()}`).toEqual(
        m.luxonWindow.dateBounds({}, m.luxon.DateTime.fromJSDate(at)),
      );
  });

  it('is the window of a list with no date bound; any bound, strict_dates or a given now is read with luxon', async () => {
    const m = await site('Europe/Berlin');
    const now = m.luxon.DateTime.fromISO('2026-11-22T11:49:00Z');
    expect(m.window.isDefaultWindow({})).toBe(true);
    expect(m.window.isDefaultWindow({ strict_dates: false })).toBe(true);
    for (const q of [
      { start_date: '2026-12-01' },
      { end_date: '2027-01-01' },
      { starts_before: '2027-01-01' },
      { starts_after: '2026-01-01' },
      { ends_before: '2027-01-01' },
      { ends_after: '2026-01-01' },
      { strict_dates: true },
    ]) {
      expect(m.window.isDefaultWindow(q)).toBe(false);
      expect(await m.window.listWindow(q, now)).toEqual(m.luxonWindow.dateBounds(q, now));
    }
    expect(await m.window.listWindow({ start_date: 'not a date' }).catch((e: Error) => e.message)).toMatch(
      /Invalid parameter\(s\): start_date/,
    );
    expect(await m.window.listWindow({}, now)).toEqual(m.luxonWindow.dateBounds({}, now));
  });
});
