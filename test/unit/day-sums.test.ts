import { describe, expect, it } from 'vitest';
import { type DateBounds, inBounds } from '../../shared/domain/date-bounds';
import {
  dayKey,
  detailMonths,
  isLong,
  needsDetail,
  nextMonth,
  SHORT_DAYS,
  sumAttr,
  sumDaysOf,
  tallyAttr,
  tallyDaysOf,
  tallyMonth,
  type TallyMark,
  type TallyWho,
} from '../../shared/domain/tallies';

/**
 * Day sums (shared/domain/tallies.ts): a month counted from its small sums item wherever no end bound
 * is near its days, from its detail item near one. Counted either way, every window holds the events
 * the event window selects (date-bounds.ts inBounds), for both audiences.
 */

/** A seeded generator, so that a failure can be replayed. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

const DAY_MS = 86_400_000;
const wall = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
const BASE = Date.UTC(2026, 10, 1);
const TIMES = ['00:00:00', '09:30:00', '23:59:58', '23:59:59'];

interface Ev {
  start: string;
  end: string;
  mark: TallyMark;
}

function events(r: () => number, n: number): Ev[] {
  return Array.from({ length: n }, () => {
    const day = Math.floor(r() * 200);
    const start = `${wall(BASE + day * DAY_MS).slice(0, 10)} ${TIMES[Math.floor(r() * TIMES.length)]}`;
    // Mostly short, some a few days long, some longer than SHORT_DAYS.
    const kind = r();
    const days = kind < 0.6 ? 0 : kind < 0.85 ? Math.floor(r() * 5) : SHORT_DAYS - 2 + Math.floor(r() * 60);
    const endDay = wall(BASE + (day + days) * DAY_MS).slice(0, 10);
    let end = `${endDay} ${TIMES[Math.floor(r() * TIMES.length)]}`;
    if (end < start) end = start;
    return { start, end, mark: r() < 0.7 ? 'p' : 'u' };
  });
}

/** The month items addTallies writes for these events: detail and sums, by month. */
function itemsOf(list: Ev[]) {
  const detail = new Map<string, Record<string, unknown>>();
  const sums = new Map<string, Record<string, unknown>>();
  const add = (items: Map<string, Record<string, unknown>>, sk: string, month: string, attr: string) => {
    const item = items.get(month) ?? { pk: 'TALLY#ALL', sk };
    item[attr] = ((item[attr] as number | undefined) ?? 0) + 1;
    items.set(month, item);
  };
  for (const e of list) {
    const [s, en] = [dayKey(e.start), dayKey(e.end)];
    const month = tallyMonth(s);
    add(detail, month, month, tallyAttr(e.mark, s, en));
    add(sums, `S#${month}`, month, sumAttr(e.mark, s));
    if (isLong(s, en)) add(sums, `S#${month}`, month, tallyAttr(e.mark, s, en));
  }
  return { detail, sums };
}

const dayStart = (d: string) => `${d} 00:00:00`;
const dayEnd = (d: string) => `${d} 23:59:59`;
const dayAt = (n: number) => wall(BASE + n * DAY_MS).slice(0, 10);

function windows(r: () => number, n: number): DateBounds[] {
  const pick = () => dayAt(Math.floor(r() * 260) - 30);
  return Array.from({ length: n }, () => {
    const b: DateBounds = { dayAligned: true };
    if (r() < 0.6) b.startMin = dayStart(pick());
    if (r() < 0.2) b.startAfter = dayEnd(pick());
    if (r() < 0.2) b.startBefore = dayEnd(pick());
    if (r() < 0.5) b.endMax = dayEnd(pick());
    if (r() < 0.2) b.endBefore = dayEnd(pick());
    if (r() < 0.4) b.endAfter = dayEnd(pick());
    return b;
  });
}

describe('day sums', () => {
  it('count every window as the event window selects, reading detail only near end bounds', () => {
    const r = random(7);
    const list = events(r, 2500);
    const { detail, sums } = itemsOf(list);
    const months = [...new Set([...detail.keys()])].sort();
    for (const b of windows(r, 300))
      for (const who of ['p', 'a'] as TallyWho[]) {
        const near = new Set(detailMonths(b));
        const bySums = months.flatMap((m) =>
          near.has(m) ? tallyDaysOf(detail.get(m)!, who, b) : sumDaysOf(sums.get(m)!, who, b),
        );
        const byDetail = months.flatMap((m) => tallyDaysOf(detail.get(m)!, who, b));
        const expected = list.filter(
          (e) => (who === 'a' || e.mark === 'p') && inBounds(b, e.start, e.end),
        ).length;
        expect(bySums, JSON.stringify(b)).toEqual(byDetail);
        expect(
          bySums.reduce((n, [, c]) => n + c, 0),
          JSON.stringify(b),
        ).toBe(expected);
      }
  });

  it('need no detail without an end bound, and at most the months around each end bound', () => {
    expect(detailMonths({ startMin: dayStart('2027-01-15'), dayAligned: true })).toEqual([]);
    // The default listing's window: the months within a short event's length of its end.
    expect(
      detailMonths({ startMin: dayStart('2026-11-25'), endMax: dayEnd('2028-11-26'), dayAligned: true }),
    ).toEqual(['2028-10', '2028-11']);
    const b: DateBounds = { endAfter: dayEnd('2027-03-01'), endMax: dayEnd('2027-09-10'), dayAligned: true };
    const near = detailMonths(b);
    for (let m = '2025-01'; m <= '2029-12'; m = nextMonth(m))
      expect(needsDetail(b, m), m).toBe(near.includes(m));
  });

  it('move to the next month across a year', () => {
    expect(['2026-11', '2026-12', '2027-01'].map(nextMonth)).toEqual(['2026-12', '2027-01', '2027-02']);
  });
});
