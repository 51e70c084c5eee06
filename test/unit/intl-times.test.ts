import { afterEach, describe, expect, it, vi } from 'vitest';
import { SITE_INSTANTS, SITE_ZONES, asSite } from '../support/site-zones';

/**
 * Event times read with Intl (shared/domain/intl-times.ts) must be luxon's (luxon-times.ts), which
 * event writes used for every input before issue 9's change: checked for wall times on and around
 * every daylight-saving change of 2026 in zones that change at 02:00, at midnight, by 30 minutes or
 * backwards, at instants in both halves of the year (a wall time that occurs twice takes the offset
 * of now), for creates, updates and all-day events, in several site zones. Inputs Intl leaves to
 * luxon must reach it and come out as before.
 */

const ZONES = [
  'UTC',
  'utc',
  'UTC+2',
  'UTC-5:30',
  'UTC+05:30',
  'Etc/GMT+3',
  'Europe/Berlin',
  'Europe/London',
  'Europe/Dublin', // negative daylight saving in the tz database
  'America/New_York',
  'America/Santiago', // changes at midnight
  'America/Havana', // changes at midnight
  'America/St_Johns',
  'Africa/Casablanca',
  'Asia/Kolkata',
  'Asia/Tokyo',
  'Australia/Lord_Howe', // 30-minute change
  'Australia/Sydney',
  'Pacific/Chatham',
  'Pacific/Apia',
];

/** Inputs only luxon reads, or refuses: each must come out as luxon gives it. */
const LUXON_ONLY: unknown[] = [
  '2026-03-29T02:30:00.000',
  '2026-03-29T02:30:00+05:00',
  '2026-10-25T02:30:00Z',
  1792000000,
  '1792000000',
  'tomorrow 9am',
  'next monday',
  '2026-01-01 24:00:00',
  '2026-02-29',
  '2026-13-01',
  '0099-01-01',
  'someday',
  true,
];

/** Zones an update moves events to. */
const MOVES = ['UTC', 'UTC-5:30', 'Europe/Berlin', 'America/Santiago', 'Australia/Lord_Howe', 'Pacific/Apia'];

const NOWS = ['2026-01-15T12:00:00Z', '2026-07-15T12:00:00Z'].map((s) => Date.parse(s));

type Mods = Awaited<ReturnType<typeof load>>;

async function load(siteZone: string) {
  asSite(siteZone);
  return {
    luxon: await import('luxon'),
    times: await import('../../shared/domain/event-times'),
    intl: await import('../../shared/domain/intl-times'),
    luxonTimes: (await import('../../shared/domain/luxon-times')).luxonTimes,
  };
}

/** The result, or the 400 (or the BEYOND signal) thrown instead, as plain data. */
function outcome(fn: () => unknown): unknown {
  try {
    return { value: fn() };
  } catch (e) {
    if (typeof e === 'symbol') return { beyond: true };
    const { message, code, data } = e as Record<string, unknown>;
    return { error: { message, code, data } };
  }
}

/** Local dates (Y-m-d) on which a zone's offset changes in 2026, the days either side, and three more. */
function changeDays(m: Mods, zone: string): string[] {
  const z = m.luxon.Info.normalizeZone(zone.trim())!;
  const days = new Set<string>();
  const step = 3 * 3_600_000;
  const start = Date.parse('2026-01-01T00:00:00Z');
  for (let ts = start; ts < start + 366 * 86_400_000; ts += step) {
    if (z.offset(ts) === z.offset(ts + step)) continue;
    for (const at of [ts, ts + step]) {
      const local = m.luxon.DateTime.fromMillis(at, { zone: z });
      for (const d of [-1, 0, 1]) days.add(local.plus({ days: d }).toFormat('yyyy-MM-dd'));
    }
  }
  return [...days, '2026-06-30', '2026-12-31', '2028-02-29'];
}

/**
 * Wall times of a day: every 30 minutes from 22:00 to 04:30, where the changes fall, every three
 * hours otherwise, and some in the contract's two other forms.
 */
function wallsOf(day: string): string[] {
  const walls: string[] = [day];
  for (let minute = 0; minute < 24 * 60; minute += 30) {
    if (minute > 270 && minute < 1320 && minute % 180 !== 0) continue;
    const hm = `${String(Math.trunc(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
    walls.push(`${day} ${hm}:00`);
    if (minute % 120 === 90) walls.push(`${day}T${hm}`, `${day} ${hm}:59`);
  }
  return walls;
}

/** The cases whose two outcomes differ (expect per case is too slow for tens of thousands). */
function differing(cases: Array<[unknown, () => unknown, () => unknown]>) {
  return cases.flatMap(([input, a, b]) => {
    const [x, y] = [outcome(a), outcome(b)];
    return JSON.stringify(x) === JSON.stringify(y) ? [] : [{ input, intl: x, luxon: y }];
  });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('event times with Intl, as luxon gives them', () => {
  it('reads every wall time around every 2026 change of 20 zones as luxon does, on create and all-day', async () => {
    const m = await load('UTC');
    const cases: unknown[] = [];
    for (const zone of ZONES) {
      const days = changeDays(m, zone);
      for (const now of NOWS) {
        const intl = m.intl.intlTimes(() => now);
        m.luxon.Settings.now = () => now;
        const diff = differing(
          days.flatMap((day) =>
            wallsOf(day).flatMap((wall) =>
              // All-day times depend on the day alone: a few walls of each day are enough.
              [false, ...(wall.endsWith('0:00') ? [true] : [])].map(
                (all_day): [unknown, () => unknown, () => unknown] => {
                  const input = { start_date: wall, end_date: `${day} 23:59:59`, timezone: zone, all_day };
                  return [
                    input,
                    () => m.times.timesWith(intl, input),
                    () => m.times.timesWith(m.luxonTimes, input),
                  ];
                },
              ),
            ),
          ),
        );
        cases.push(...diff);
      }
    }
    m.luxon.Settings.now = () => Date.now();
    expect(cases).toEqual([]);
  }, 120_000);

  it('moves an event to other zones as luxon does: updates keep wall times, switch all-day on', async () => {
    const m = await load('UTC');
    const diffs: unknown[] = [];
    const days = new Map(ZONES.map((zone) => [zone, changeDays(m, zone).slice(0, 3)]));
    for (const now of NOWS) {
      m.luxon.Settings.now = () => now;
      const intl = m.intl.intlTimes(() => now);
      for (const from of ZONES)
        for (const day of days.get(from)!)
          for (const wall of wallsOf(day).filter((_, i) => i % 6 === 1)) {
            const current = m.times.timesWith(m.luxonTimes, {
              start_date: wall,
              end_date: `${day} 23:59:59`,
              timezone: from,
            });
            const inputs = [
              {},
              { all_day: true },
              { timezone: null },
              ...MOVES.map((timezone) => ({ timezone })),
            ];
            diffs.push(
              ...differing(
                inputs.map((input) => [
                  [current, input],
                  () => m.times.timesWith(intl, input, current),
                  () => m.times.timesWith(m.luxonTimes, input, current),
                ]),
              ),
            );
          }
    }
    m.luxon.Settings.now = () => Date.now();
    expect(diffs).toEqual([]);
  }, 120_000);

  it.each(SITE_ZONES)('dates an event without a zone in the site zone %j as luxon does', async (site) => {
    const m = await load(site);
    for (const now of NOWS) {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(now);
      for (const day of ['2026-03-29', '2026-09-06', '2026-10-25', '2026-11-01'])
        for (const wall of wallsOf(day).filter((_, i) => i % 3 === 1)) {
          const input = { start_date: wall, end_date: `${day} 23:59:59` };
          const luxon = outcome(() => m.times.timesWith(m.luxonTimes, input));
          expect(outcome(() => m.times.timesWith(m.intl.intlTimes(), input))).toEqual(
            ['UTC+15', 'Not/AZone'].includes(site) ? { beyond: true } : luxon,
          );
          expect({ value: await m.times.resolveEventTimes(input) }).toEqual(luxon);
        }
      vi.useRealTimers();
    }
  });

  it('leaves every other input to luxon and answers it as luxon does, 400s included', async () => {
    const m = await load('Europe/Berlin');
    const zones = [...ZONES, ' Europe/Berlin ', 'GMT', 'local', 'EST5EDT', 'Mars/Olympus', 'UTC+99', ''];
    for (const timezone of zones)
      for (const start_date of LUXON_ONLY) {
        const input = { start_date, end_date: '2027-01-01 00:00:00', timezone };
        const luxon = outcome(() => m.times.timesWith(m.luxonTimes, input));
        let got: unknown;
        try {
          got = { value: await m.times.resolveEventTimes(input) };
        } catch (e) {
          got = outcome(() => {
            throw e;
          });
        }
        expect(got, JSON.stringify(input)).toEqual(luxon);
      }
  });
});

describe('list and feed windows with Intl, as luxon gives them', () => {
  it('moves wall times by days and months as luxon does, across every 2026 change of 20 zones', async () => {
    const m = await load('UTC');
    const diffs: unknown[] = [];
    for (const zone of ZONES) {
      const days = changeDays(m, zone);
      for (const now of NOWS) {
        m.luxon.Settings.now = () => now;
        const intl = m.intl.intlTimes(() => now);
        const [iz, lz] = [intl.zone(zone)!, m.luxonTimes.zone(zone)!];
        for (const day of days)
          for (const wall of wallsOf(day).filter((_, i) => i % 2 === 1))
            for (const [unit, n] of [
              ['days', -30],
              ['days', -1],
              ['days', 1],
              ['days', 365],
              ['months', 24],
              ['months', -1],
            ] as const) {
              const show = <M>(
                maths: { wall(m: M): string; utcWall(m: M): string; ms(m: M): number },
                x: M,
              ) => `${maths.wall(x)} ${maths.utcWall(x)} ${maths.ms(x)}`;
              const a = intl.read('start_date', wall, iz);
              const b = m.luxonTimes.read('start_date', wall, lz);
              const moved = [
                unit === 'days' ? intl.plusDays(a, n) : intl.plusMonths(a, n),
                unit === 'days' ? m.luxonTimes.plusDays(b, n) : m.luxonTimes.plusMonths(b, n),
              ] as const;
              const [x, y] = [show(intl, moved[0]), show(m.luxonTimes, moved[1])];
              if (x !== y) diffs.push({ zone, wall, unit, n, intl: x, luxon: y });
            }
      }
    }
    m.luxon.Settings.now = () => Date.now();
    expect(diffs).toEqual([]);
  }, 120_000);

  it.each(SITE_ZONES)(
    'reads list windows and feed windows in the site zone %j as luxon does',
    async (site) => {
      const m = await load(site);
      const { windowWith } = await import('../../shared/domain/event-window');
      const { listWindow } = await import('../../shared/domain/list-window');
      const { feedWindow } = await import('../../shared/services/feeds/ical');
      const queries = [
        {},
        { strict_dates: true },
        { start_date: '2026-03-29 02:30:00' },
        { start_date: '2026-10-25 02:30:00', strict_dates: true },
        { start_date: '2026-09-06', end_date: '2026-09-06 00:30' },
        { end_date: '2026-01-31 23:00:00', strict_dates: true },
        { starts_before: '2026-11-01 00:00:00', ends_after: '2026-10-01' },
        { starts_after: '2026-09-05 23:59:59', strict_dates: true },
        { start_date: '2026-03-29T02:30:00+01:00' },
        { start_date: 'tomorrow', end_date: '+1 month' },
        { start_date: 1792000000, strict_dates: true },
      ];
      for (const at of SITE_INSTANTS) {
        m.luxon.Settings.now = () => at.getTime();
        vi.useFakeTimers({ toFake: ['Date'] });
        vi.setSystemTime(at);
        for (const q of queries) {
          const luxon = windowWith(m.luxonTimes, q, at);
          expect(await listWindow(q, at), `${site} ${at.toISOString()} ${JSON.stringify(q)}`).toEqual(luxon);
          const feed = { start_date: q.start_date, end_date: q.end_date };
          const { DateTime } = m.luxon;
          const local = DateTime.fromJSDate(at, { zone: m.luxonTimes.site().zone });
          const given = (v: string | number | undefined) =>
            v === undefined ? undefined : m.luxonTimes.read('start_date', v, m.luxonTimes.site().zone);
          const [start, end] = [given(feed.start_date), given(feed.end_date)];
          expect(await feedWindow(feed, at)).toEqual({
            start_date:
              feed.start_date ??
              DateTime.min(local, end ?? local)
                .minus({ days: 30 })
                .toFormat('yyyy-MM-dd'),
            end_date:
              feed.end_date ??
              DateTime.max(local, start ?? local)
                .plus({ days: 365 })
                .toFormat('yyyy-MM-dd'),
          });
        }
        vi.useRealTimers();
      }
      m.luxon.Settings.now = () => Date.now();
    },
  );
});
