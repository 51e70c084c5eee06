import { describe, expect, it } from 'vitest';
import { SITE_INSTANTS, SITE_ZONES, asSite } from '../support/site-zones';

/**
 * The default listing's window comes from the site's date without luxon (shared/domain/list-window.ts,
 * issue 9); every other window is read by event-window.ts. The two must agree on the default window
 * for any site zone and instant: month ends, leap days and daylight-saving changes included.
 */

/** The modules as a cold function loads them with SITE_TIMEZONE set to `zone` (config reads it then). */
async function site(zone: string) {
  asSite(zone);
  return {
    luxonWindow: async (q: Record<string, unknown>, at: Date) =>
      (await import('../../shared/domain/event-window')).windowWith(
        (await import('../../shared/domain/luxon-times')).luxonTimes,
        q,
        at,
      ),
    window: await import('../../shared/domain/list-window'),
  };
}

describe('the default window without luxon', () => {
  it.each(SITE_ZONES)('equals the one event-window.ts reads in %j', async (zone) => {
    const m = await site(zone);
    for (const at of SITE_INSTANTS)
      expect(m.window.defaultWindow(at), `${zone} at ${at.toISOString()}`).toEqual(
        await m.luxonWindow({}, at),
      );
  });

  it('is the window of a list with no date bound; any bound, strict_dates or a given now is read with luxon', async () => {
    const m = await site('Europe/Berlin');
    const now = new Date('2026-11-22T11:49:00Z');
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
      expect(await m.window.listWindow(q, now)).toEqual(await m.luxonWindow(q, now));
    }
    expect(await m.window.listWindow({ start_date: 'not a date' }).catch((e: Error) => e.message)).toMatch(
      /Invalid parameter\(s\): start_date/,
    );
    expect(await m.window.listWindow({}, now)).toEqual(await m.luxonWindow({}, now));
  });
});
