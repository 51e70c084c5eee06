import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PostRecord } from '../../shared/domain/records';
import type { User } from '../../shared/domain/roles';
import { SITE_INSTANTS, SITE_ZONES, asSite } from '../support/site-zones';

/**
 * A venue or organizer write dates itself with clock.ts (Intl, no luxon) when its body sends no `date`
 * / `date_utc`, and with publication-dates.ts (luxon, loaded by shared/http/lazy-parts.ts) when it sends one
 * (shared/domain/published-at.ts, issue 9). Both must give what the write gave when it always
 * called publicationDates(body, siteZone(), DateTime.now()): checked here for several site zones,
 * instants and bodies, 400s included, on creates and on updates.
 */

type Rec = Record<string, unknown>;

/** Date fields of a venue body (the name is added): none, empty, or each format the contract reads. */
const BODIES: Rec[] = [
  {},
  { date: undefined, date_utc: undefined },
  { date: null },
  { date_utc: null },
  { date: '' },
  { date_utc: '' },
  { date: '', date_utc: null },
  { date: '2025-01-02 03:04:05' },
  { date: '2025-01-02 03:04' },
  { date: '2025-01-02' },
  { date: '2026-03-29 02:30:00' }, // in Berlin's spring gap
  { date: '2026-10-25 02:30:00' }, // in Berlin's repeated hour
  { date: '2025-01-02T03:04:05' },
  { date: '2025-01-02T03:04:05+02:00' },
  { date: '2025-01-02T03:04:05Z' },
  { date: 1735787045 },
  { date: '1735787045' },
  { date: 0 },
  { date: 'now' },
  { date: 'tomorrow 9am' },
  { date: 'next monday 10am' },
  { date: '2 days ago' },
  { date_utc: '2025-01-02 03:04:05' },
  { date_utc: '2025-01-02T03:04:05-05:00' },
  { date_utc: 1735787045 },
  { date_utc: 'yesterday noon' },
  { date: '2025-01-02 03:04:05', date_utc: '2024-06-01 00:00:00' },
  { date: '', date_utc: '2024-06-01 00:00:00' },
  { date: '2025-01-02', date_utc: '' },
  { date: 'before my birthday' },
  { date_utc: 'foo' },
  { date: '2025-13-45' },
  { date: ' ' },
  { date: 'foo', date_utc: 'bar' },
];

const EDITOR: User = { sub: 'user-editor', role: 'editor' };

/** The modules as a cold function loads them with SITE_TIMEZONE set to `zone` (config reads it then). */
async function site(zone: string) {
  asSite(zone);
  return {
    luxon: await import('luxon'),
    dates: await import('../../shared/domain/dates'),
    pub: await import('../../shared/domain/publication-dates'),
    clock: await import('../../shared/domain/clock'),
    state: await import('../../shared/services/linked/write'),
    lazy: await import('../../shared/http/lazy-parts'),
    venue: (await import('../../shared/services/linked/write')).venueType,
  };
}
type Site = Awaited<ReturnType<typeof site>>;

/** A value, or the 400 thrown instead, as plain data. */
function outcome<T>(fn: () => T): { value: T } | { error: Rec } {
  try {
    return { value: fn() };
  } catch (e) {
    const { message, kind, code, data, status } = e as Rec;
    return { error: { message, kind, code, data, status } };
  }
}

/** The dates nextState gave before issue 9's change, which always called luxon's publicationDates. */
function before(m: Site, body: Rec, sent: Set<string>, current?: PostRecord<object>) {
  const has = (k: string) => sent.has(k) && body[k] !== undefined && body[k] !== null;
  return outcome(() =>
    (has('date') && body.date !== '') || (has('date_utc') && body.date_utc !== '') || !current
      ? m.pub.publicationDates(body, m.dates.siteZone(), m.luxon.DateTime.now())
      : { date: current.date, date_utc: current.date_utc },
  );
}

/** The dates (and `modified` stamps) nextState gives now, after the handler's loadForBody. */
async function after(m: Site, body: Rec, sent: Set<string>, current?: PostRecord<object>) {
  await m.lazy.loadForBody(body);
  return outcome(() => {
    const { record } = m.state.nextState(m.venue, body as never, sent, EDITOR, current as never);
    const { date, date_utc, modified, modified_utc, sortDate } = record;
    return { date, date_utc, modified, modified_utc, sortDate };
  });
}

afterEach(() => vi.useRealTimers());

describe('venue and organizer publication dates with luxon loaded only for a sent date', () => {
  it.each(SITE_ZONES)('are dated now by clock.ts as publicationDates dates them in %j', async (zone) => {
    const m = await site(zone);
    vi.useFakeTimers({ toFake: ['Date'] });
    for (const at of SITE_INSTANTS) {
      vi.setSystemTime(at);
      const luxon = m.pub.publicationDates({}, m.dates.siteZone(), m.luxon.DateTime.now());
      expect(m.clock.nowDates(at)).toEqual(luxon);
      expect(m.pub.sitePublicationDates({}, at)).toEqual(luxon);
      // Created without a date (nothing loaded the parser): the dates and the stamps of one instant.
      const made = await after(m, { venue: 'Hall' }, new Set(['venue']));
      expect(made).toEqual({
        value: {
          ...luxon,
          modified: luxon.date,
          modified_utc: luxon.date_utc,
          sortDate: luxon.date_utc,
        },
      });
    }
  });

  it.each(SITE_ZONES)('give what publicationDates gave for every body in %j', async (zone) => {
    const m = await site(zone);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2020-05-05T05:05:05Z'));
    const made = await after(m, { venue: 'Hall' }, new Set(['venue']));
    if (!('value' in made)) throw new Error('the venue was not made');
    const current = { ...made.value, title: 'Hall', data: {} } as unknown as PostRecord<object>;
    for (const at of SITE_INSTANTS) {
      vi.setSystemTime(at);
      for (const fields of BODIES) {
        const body = { venue: 'Hall', ...fields };
        const sent = new Set(Object.keys(body));
        const label = JSON.stringify({ zone, at, fields });
        const stamps = m.clock.nowStamps(at);

        const created = await after(m, body, sent);
        const was = before(m, body, sent);
        if ('error' in was) expect(created, label).toEqual(was);
        else
          expect(created, label).toEqual({
            value: { ...was.value, ...stamps, sortDate: was.value.date_utc },
          });

        // An update sends only the date fields: "" and null leave the dates as they were.
        const updateSent = new Set(Object.keys(fields));
        const updated = await after(m, body, updateSent, current);
        const wasUpdated = before(m, body, updateSent, current);
        if ('error' in wasUpdated) expect(updated, label).toEqual(wasUpdated);
        else
          expect(updated, label).toEqual({
            value: { ...wasUpdated.value, ...stamps, sortDate: wasUpdated.value.date_utc },
          });
      }
    }
  });
});
