import { dayNumber, dayOf, daysInMonth } from './calendar';
import type { DateBounds } from './date-bounds';
import type { LinkKind } from './records';

/**
 * Day-granular tallies: listable events counted by scope, start day and end day, so that list totals
 * over whole-day windows need no event reads. A time of exactly 23:59:59 gets its own key (`day~`),
 * because inclusive bounds are `< day 23:59:59` or `<= day 23:59:59` and must tell it apart.
 */
export const dayKey = (wallTime: string) =>
  wallTime.slice(0, 10) + (wallTime.endsWith('23:59:59') ? '~' : '');

/**
 * What a tally counts: every event, the featured ones, the ticketed ones (those with a ticket), the
 * events linked to one term / venue / organizer, a category's subtree, or a venue's events in a
 * category's subtree. Its key strings are built in db/keys.ts alone (keys.tally).
 */
export type TallyScope =
  | { of: 'all' }
  | { of: 'featured' }
  | { of: 'ticketed' }
  | { of: 'link'; kind: LinkKind; id: number }
  | { of: 'tree'; category: number }
  | { of: 'venueTree'; venue: number; category: number };

export const allScope: TallyScope = { of: 'all' };
export const featuredScope: TallyScope = { of: 'featured' };
/** The events that have a ticket: moved by the ticket writes and by the event's own (docs/tickets.md). */
export const ticketedScope: TallyScope = { of: 'ticketed' };

/** The events linked to one term, venue or organizer. */
export const linkedScope = (l: { kind: LinkKind; id: number }): TallyScope => ({
  of: 'link',
  kind: l.kind,
  id: l.id,
});

/**
 * The subtree scope of a category: events linked to it or to any of its descendants, each counted once
 * (decisions §8: a category filter matches its children's events too).
 */
export const treeScope = (categoryId: number): TallyScope => ({ of: 'tree', category: categoryId });

/**
 * The events of a venue in a category's subtree (`categories=<c>&venue=<v>`): a pair scope, whose
 * tallies live in the venue's partition (db/keys.ts), so that a venue's delete takes them along.
 */
export const venueTreeScope = (venue: number, categoryId: number): TallyScope => ({
  of: 'venueTree',
  venue,
  category: categoryId,
});

/**
 * Every category whose subtree holds one of `categories`: each one and its ancestors, once. `parentOf`
 * is the taxonomy's parent map (0 or missing: a top-level category, or one unknown to the map).
 */
export function ancestorsOrSelf(categories: number[], parentOf: ReadonlyMap<number, number>): number[] {
  const out = new Set<number>();
  for (const id of categories)
    for (let c: number | undefined = id; c && !out.has(c); c = parentOf.get(c)) out.add(c);
  return [...out];
}

/** Who a tally counts: `p` published events (everyone sees them), `a` every listable status (editors). */
export type TallyWho = 'p' | 'a';

/**
 * What a tally attribute counts: `p` published events, `u` listable events that are not published
 * (editors see both: most events are published, so most items hold `p` attributes only).
 */
export type TallyMark = 'p' | 'u';

/** The mark an event of this status is tallied under. */
export const tallyMark = (status: string): TallyMark => (status === 'publish' ? 'p' : 'u');

/**
 * Tallies are kept per scope and start month: one item a month, one attribute per mark, start day and
 * end day, so that a window's total and the day where any of its pages begins come from one small item
 * per month (about 25 for the default window), not one per day.
 */
export const tallyMonth = (startKey: string) => startKey.slice(0, 7);

// Day arithmetic held to the calendar (calendar.ts): a bound on its first or last day looks at most
// at that day, never at a year 0 or 10000 that no key can hold.
const tilde = (key: string) => (key.endsWith('~') ? '~' : '');

/**
 * Attribute of a month tally item: events of this mark that start on `startKey` and end on `endKey`,
 * as `<mark><day of month>[~]|<days from start to end>[~]` (`p05|0`, `u31~|1~`): short, because an
 * item's size is what each write and read of it costs.
 */
export const tallyAttr = (mark: TallyMark, startKey: string, endKey: string) =>
  `${mark}${startKey.slice(8, 10)}${tilde(startKey)}|${dayNumber(endKey) - dayNumber(startKey)}${tilde(endKey)}`;

/**
 * Events lasting more than this many days past their start day are long. A month's day sums item
 * counts every event per start day, and lists long events by end day as well: a window whose end
 * bounds are over a month away from a month's days takes that month's count from its sums, and reads
 * its detail item only near an end bound (needsDetail).
 */
export const SHORT_DAYS = 31;

/** Attribute of a month's day sums item: events of this mark that start on `startKey` (`p05`, `u31~`). */
export const sumAttr = (mark: TallyMark, startKey: string) =>
  `${mark}${startKey.slice(8, 10)}${tilde(startKey)}`;

/** Whether an event from `startKey` to `endKey` is long: its detail attribute also goes in the sums item. */
export const isLong = (startKey: string, endKey: string) =>
  dayNumber(endKey) - dayNumber(startKey) > SHORT_DAYS;

const SUM = /^([pu])(\d\d)(~?)$/;

/** Whether the end-day keys in [lo, hi] all pass the window's end bounds, or all fail them. */
function uniform(b: DateBounds, lo: string, hi: string): boolean {
  const below = (key: string) =>
    (b.endMax === undefined || leEnd(key, b.endMax)) &&
    (b.endBefore === undefined || ltEnd(key, b.endBefore));
  const above = (key: string) => b.endAfter === undefined || gtEnd(key, b.endAfter);
  // The end keys that pass are an interval (below one bound, above the other).
  return (below(hi) && above(lo)) || !below(lo) || !above(hi);
}

/** The start-day keys of a month (`YYYY-MM`): each day, and its 23:59:59 second. */
function monthKeys(month: string): string[] {
  const days = daysInMonth(Number(month.slice(0, 4)), Number(month.slice(5, 7)));
  return Array.from({ length: days }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}`).flatMap((d) => [
    d,
    `${d}~`,
  ]);
}

/**
 * Whether a window needs a month's detail item: some short event starting that month (inside the
 * start bounds) could end on either side of an end bound. Otherwise the short events of each start
 * day all pass the end bounds or all fail them, and the day sums item counts them.
 */
export function needsDetail(b: DateBounds, month: string): boolean {
  if (b.endMax === undefined && b.endBefore === undefined && b.endAfter === undefined) return false;
  return monthKeys(month).some(
    (start) => startDayOk(b, start) && !uniform(b, start, `${dayOf(dayNumber(start) + SHORT_DAYS)}~`),
  );
}

/**
 * The months whose detail items a window needs (needsDetail), in order: only months with days within
 * a short event's length before an end bound (or a day after it) can.
 */
export function detailMonths(b: DateBounds): string[] {
  const months = new Set<string>();
  for (const bound of [b.endMax, b.endBefore, b.endAfter])
    if (bound !== undefined)
      for (let n = dayNumber(bound) - SHORT_DAYS - 1; n <= dayNumber(bound) + 1; n++)
        months.add(dayOf(n).slice(0, 7));
  return [...months].filter((m) => needsDetail(b, m)).sort();
}

/** The month after `YYYY-MM` (`10000-01` after the calendar's last month). */
export function nextMonth(month: string): string {
  const n = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7));
  return `${String(Math.floor(n / 12)).padStart(4, '0')}-${String((n % 12) + 1).padStart(2, '0')}`;
}

/**
 * Events one month's day sums item counts inside the window for this audience, per start-day key in
 * key order; only for a month that does not need its detail item (needsDetail).
 */
export function sumDaysOf(
  item: Record<string, unknown>,
  who: TallyWho,
  b: DateBounds,
): Array<[string, number]> {
  const month = String(item.sk).slice(-7);
  if (!MONTH.test(month)) return [];
  const days = new Map<string, number>();
  const add = (key: string, n: number) => days.set(key, (days.get(key) ?? 0) + n);
  for (const [attr, n] of Object.entries(item)) {
    if (!(attr[0] === 'p' || (who === 'a' && attr[0] === 'u')) || typeof n !== 'number' || n === 0) continue;
    const sum = SUM.exec(attr);
    if (sum) {
      // Every event of the day, counted here as short; the long ones are corrected below.
      const start = `${month}-${sum[2]}${sum[3]}`;
      if (startDayOk(b, start) && endDayOk(b, start)) add(start, n);
      continue;
    }
    const long = readTallyAttr(month, attr);
    if (!long || !startDayOk(b, long.start)) continue;
    if (endDayOk(b, long.start)) add(long.start, -n);
    if (endDayOk(b, long.end)) add(long.start, n);
  }
  return [...days].filter(([, n]) => n !== 0).sort(([a], [c]) => (a < c ? -1 : a > c ? 1 : 0));
}

const MONTH = /^\d{4}-\d{2}$/;
const ATTR = /^([pu])(\d\d)(~?)\|(-?\d+)(~?)$/;

/** What a month item's attribute counts, or undefined for anything else (keys, older day items'). */
export function readTallyAttr(
  month: string,
  attr: string,
): { mark: TallyMark; start: string; end: string } | undefined {
  const key = `${month}|${attr}`;
  const known = readAttrs.get(key);
  if (known !== undefined || readAttrs.has(key)) return known;
  const m = ATTR.exec(attr);
  const startDay = `${month}-${m?.[2]}`;
  const read = m
    ? {
        mark: m[1] as TallyMark,
        start: startDay + m[3],
        end: dayOf(dayNumber(startDay) + Number(m[4])) + m[5],
      }
    : undefined;
  // Every list request reads the same few thousand attributes: parse each once per instance.
  if (readAttrs.size >= 100_000) readAttrs.clear();
  readAttrs.set(key, read);
  return read;
}
const readAttrs = new Map<string, ReturnType<typeof readTallyAttr>>();

/** Events one month tally item counts inside the window for this audience, per start-day key in key order. */
export function tallyDaysOf(
  item: Record<string, unknown>,
  who: TallyWho,
  b: DateBounds,
): Array<[string, number]> {
  const sk = String(item.sk);
  const month = sk.slice(-7);
  const days = new Map<string, number>();
  if (!MONTH.test(month) || (sk.length > 7 && sk[sk.length - 8] !== '#')) return [];
  for (const [attr, n] of Object.entries(item)) {
    if (!(attr[0] === 'p' || (who === 'a' && attr[0] === 'u')) || typeof n !== 'number' || n === 0) continue;
    const counted = readTallyAttr(month, attr);
    if (!counted || !startDayOk(b, counted.start) || !endDayOk(b, counted.end)) continue;
    days.set(counted.start, (days.get(counted.start) ?? 0) + n);
  }
  return [...days].filter(([, n]) => n !== 0).sort(([a], [c]) => (a < c ? -1 : a > c ? 1 : 0));
}

const day = (bound: string) => bound.slice(0, 10);
const ge = (key: string, bound: string) => key >= day(bound); // start >= D 00:00:00
const leEnd = (key: string, bound: string) => key <= `${day(bound)}~`; // <= D 23:59:59
const ltEnd = (key: string, bound: string) => key <= day(bound); // < D 23:59:59
const gtEnd = (key: string, bound: string) => key > `${day(bound)}~`; // > D 23:59:59

/** Whether a start-day key satisfies the window's start bounds (all of them on day boundaries). */
export function startDayOk(b: DateBounds, key: string): boolean {
  return (
    (b.startMin === undefined || ge(key, b.startMin)) &&
    (b.startBefore === undefined || ltEnd(key, b.startBefore)) &&
    (b.startAfter === undefined || gtEnd(key, b.startAfter))
  );
}

/** Whether an end-day key satisfies the window's end bounds. */
export function endDayOk(b: DateBounds, key: string): boolean {
  return (
    (b.endMax === undefined || leEnd(key, b.endMax)) &&
    (b.endBefore === undefined || ltEnd(key, b.endBefore)) &&
    (b.endAfter === undefined || gtEnd(key, b.endAfter))
  );
}

/** The start-day keys a window can hold: [low, high], inclusive. */
export function tallyRange(b: DateBounds): [string, string] {
  const lows = [b.startMin, b.startAfter].filter((x): x is string => x !== undefined).map(day);
  const highs = [b.startBefore, b.endMax, b.endBefore].filter((x): x is string => x !== undefined).map(day);
  const low = lows.length ? lows.reduce((a, c) => (c > a ? c : a)) : '0000';
  const high = `${highs.length ? highs.reduce((a, c) => (c < a ? c : a)) : '9999'}~`;
  return [low, high];
}

/**
 * Per-day counts of one list less those of a list it holds (every event less the ticketed ones, for
 * `ticketed=false`), both in key order: days left empty are dropped.
 */
export function lessDays(
  of: { total: number; days: Array<[string, number]> },
  less: { total: number; days: Array<[string, number]> },
): { total: number; days: Array<[string, number]> } {
  const minus = new Map(less.days);
  const days = of.days
    .map(([key, n]): [string, number] => [key, n - (minus.get(key) ?? 0)])
    .filter(([, n]) => n !== 0);
  return { total: days.reduce((t, [, n]) => t + n, 0), days };
}

/** Where a page begins, found from the tallies: the index key to read from and the rows to skip there. */
export interface PageStart {
  /** Start-index key of the day holding the first row of the page (`YYYY-MM-DD` or its 23:59:59 second). */
  from: string;
  /** Listed events of that day (in list order) before the page's first row. */
  skip: number;
}

/**
 * The day where row `offset` of a tallied list falls, from that list's per-day counts in key order.
 * Index keys start with the wall time, so a day key `D` starts at `D` and `D~` at `D 23:59:59`.
 * Undefined when the list has no row `offset`.
 */
export function pageStart(days: Array<[string, number]>, offset: number): PageStart | undefined {
  let before = 0;
  for (const [key, count] of days) {
    if (before + count > offset)
      return { from: key.endsWith('~') ? `${key.slice(0, 10)} 23:59:59` : key, skip: offset - before };
    before += count;
  }
  return undefined;
}

/**
 * Categories whose subtree tallies change when `id` moves from `from` to `to` (0: top level): the
 * ancestors it leaves and the ones it joins, not the ones it keeps (nor itself and its descendants).
 */
export function movedTrees(
  from: number,
  to: number,
  terms: Map<number, { id: number; parent: number }>,
): number[] {
  const parentOf = new Map([...terms.values()].map((t) => [t.id, t.parent]));
  const old = new Set(from ? ancestorsOrSelf([from], parentOf) : []);
  const now = new Set(to ? ancestorsOrSelf([to], parentOf) : []);
  return [...[...old].filter((c) => !now.has(c)), ...[...now].filter((c) => !old.has(c))];
}
