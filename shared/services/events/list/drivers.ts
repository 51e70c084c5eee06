import type { DateBounds } from '../../../domain/date-bounds';
import type { EventData, EventRecord, EventRow } from '../../../domain/event-record';
import { rowOf } from '../../../domain/event-record';
import {
  type Candidate,
  type LinkFilter,
  linkScope,
  matchesLinks,
  scopeTree,
  tallyCount,
} from '../../../domain/event-query';
import { indexedQueryWords } from '../../../domain/search';
import { lessDays, pageStart, type TallyScope, type TallyWho } from '../../../domain/tallies';
import type { PageSize } from '../../../repositories/unit-of-work';
import { allInOrder } from '../../common';
import type { Driver, EventListPlan, EventListQuery } from './plan';
import type { ListReads } from './reads';
import type { Check } from './targets';

/** What every executor gets: the plan, the query, its window and its resolved link filters. */
export interface ListRun {
  plan: EventListPlan;
  q: EventListQuery;
  bounds?: DateBounds;
  /** Start keys the window can hold (every key without a window). */
  range: { low: string; high: string };
  links: LinkFilter[];
  checks: Check[];
  /** What every candidate row must pass (status, window, featured, ticketed, post_parent). */
  keep: (row: EventRow) => boolean;
  reads: ListReads;
}

export interface Found {
  candidates: Candidate[];
  /** The list's total, when the tallies counted it. */
  total?: number;
  /** The candidates are the requested page already (the tally driver reads only that). */
  paged: boolean;
  /** The executor that served: the plan's driver, or `links` when a subtree's tallies are flagged stale. */
  ran: Driver;
}

/** Runs the parameter checks together (see allInOrder). */
const runChecks = (checks: Check[]) => allInOrder(checks.map((c) => c()));

/**
 * The filter to read page 1's rows from with the tallies (the only one, or the smaller estimate) and
 * how many of its rows to read for one row that passes the other: 1 for one filter; for a category
 * with a venue or organizer, the inverse of the other's share of the events that have a category,
 * and half again for matches that bunch toward the end (a read that falls short costs a round trip).
 */
function likelyDriver(links: LinkFilter[]): { filter: LinkFilter | undefined; spread: number } | undefined {
  if (links.length <= 1) return { filter: links[0], spread: 1 };
  const [category, other] = links;
  if (links.length > 2 || category!.linkedToAny === undefined || other!.estimate === undefined)
    return undefined;
  const filter = other!.estimate < category!.estimate! ? other! : category!;
  const share = (filter === category ? other! : category!).estimate! / Math.max(category!.linkedToAny, 1);
  return { filter, spread: share > 0 ? Math.min(1.5 / share, 40) : 40 };
}

/**
 * The link filter with the fewest events in the window and that number, when tallies can tell
 * (one target each, whole days, a tallied audience); else the first one. Its rows drive an AND of
 * several filters.
 */
async function smallestFilter(
  reads: ListReads,
  links: LinkFilter[],
  who: TallyWho | undefined,
  bounds: DateBounds | undefined,
): Promise<{ filter: LinkFilter; size: number }> {
  if (links.length === 1 || !who || !bounds?.dayAligned)
    return { filter: links[0]!, size: Number.POSITIVE_INFINITY };
  const sizes = await Promise.all(
    links.map(async (l) => {
      const scope = linkScope(l);
      return scope ? (await reads.tallyDays(scope, who, bounds)).total : Number.POSITIVE_INFINITY;
    }),
  );
  const size = Math.min(...sizes);
  return { filter: links[sizes.indexOf(size)]!, size };
}

/**
 * The rows that also pass the other link filters. A row names the event's terms and linked posts
 * (EventRow `terms` / `posts`), so this needs no read; a row written before rows named them is
 * checked by reading its link items (one batched read for all of them).
 */
async function otherLinks(reads: ListReads, rows: EventRow[], others: LinkFilter[]): Promise<EventRow[]> {
  if (others.length === 0) return rows;
  const named = (row: EventRow, f: LinkFilter) =>
    f.kind === 'SERIES'
      ? row.series === undefined
        ? []
        : [row.series]
      : f.kind === 'TICKETED'
        ? row.ticketed
          ? [0]
          : []
        : f.kind === 'TERM'
          ? row.terms
          : row.posts;
  const unnamed = rows.filter((r) => others.some((f) => named(r, f) === undefined));
  const found = await reads.existingLinks(
    unnamed.flatMap((r) =>
      others.flatMap((f) => f.ids.map((id) => ({ eventId: r.eventId, kind: f.kind, id }))),
    ),
  );
  return rows.filter((r) =>
    others.every((f) => {
      const ids = named(r, f);
      return ids
        ? f.ids.some((id) => ids.includes(id))
        : f.ids.some((id) => found.has(`${r.eventId}|${f.kind}#${id}`));
    }),
  );
}

async function* rowsOf(events: AsyncIterable<EventRecord>): AsyncGenerator<Candidate> {
  for await (const record of events) yield { row: rowOf(record), record };
}

async function* candidatesOf(rows: AsyncIterable<EventRow>): AsyncGenerator<Candidate> {
  for await (const row of rows) yield { row };
}

/**
 * The rows of one link filter (a category's subtree: its and its descendants' link streams merged,
 * each event once), or of every event (only the featured ones for `featured=true`), in start order
 * from `from.low`, read `pageSize` at a time.
 */
function scopeRows(
  reads: ListReads,
  filter: LinkFilter | undefined,
  from: { low: string; high: string },
  pageSize: PageSize | undefined,
  featured: boolean | undefined,
): AsyncIterable<Candidate> {
  return filter
    ? candidatesOf(reads.eventsLinkedToAny(filter.kind, filter.ids, from, pageSize))
    : rowsOf(reads.eventsStartingBetween(from, pageSize, featured === true));
}

/**
 * Starts an iterable's first read now: `ready` settles with it, and iterating `rows` goes on from there.
 * The caller awaits `ready` with its other reads (allInOrder), so that no read outlives the request.
 */
function started<T>(source: AsyncIterable<T>): { rows: AsyncIterable<T>; ready: Promise<unknown> } {
  const it = source[Symbol.asyncIterator]();
  const first = it.next();
  return {
    ready: first,
    rows: {
      async *[Symbol.asyncIterator]() {
        for (let r = await first; !r.done; r = await it.next()) yield r.value;
      },
    },
  };
}

/** `include`: the listed IDs read by key; AND across parameters holds, so each link filter must match. */
async function fromIds({ q, links, checks, reads }: ListRun): Promise<Found> {
  await runChecks(checks);
  const posts = await reads.getPosts<EventData>(q.include!);
  const candidates = [...posts.values()]
    .filter((p) => p.type === 'event')
    .map((p) => p as EventRecord)
    .filter((e) => matchesLinks(e, links))
    .map((e) => ({ row: rowOf(e), record: e }));
  return { candidates, paged: false, ran: 'ids' };
}

/**
 * Events whose indexed words every query word of two or more characters starts (one Query per word,
 * together), read by ID and checked against the link filters; the full word-start match on the
 * records follows (listEvents). Reads the matches, not the calendar.
 */
async function fromSearch({ q, links, checks, reads }: ListRun): Promise<Found> {
  await runChecks(checks);
  const sets = (await Promise.all(indexedQueryWords(q.search!).map(reads.eventsWithWordStart))).sort(
    (a, b) => a.size - b.size,
  );
  const found = [...sets[0]!].filter((id) => sets.every((s) => s.has(id)));
  const posts = await reads.getPosts<EventData>(found);
  const candidates = [...posts.values()]
    .filter((p) => p.type === 'event')
    .map((p) => p as EventRecord)
    .filter((e) => matchesLinks(e, links))
    .map((e) => ({ row: rowOf(e), record: e }));
  return { candidates, paged: false, ran: 'search' };
}

/**
 * AND across link filters: the rows of the driving filter (the smallest, its tallies tell; else the
 * first), each target's rows in the window, checked against the others on each row (otherLinks).
 */
async function linkRows(run: ListRun, driver: { filter: LinkFilter } | undefined): Promise<Found> {
  const { links, range, keep, reads } = run;
  const filter = driver?.filter ?? links[0]!;
  const union = new Map<number, EventRow>();
  for (const target of filter.ids)
    for await (const row of reads.eventsLinkedTo(filter.kind, target, range)) union.set(row.eventId, row);
  const rows = [...union.values()].filter(keep);
  const others = links.filter((l) => l !== filter);
  const candidates = (await otherLinks(reads, rows, others)).map((row) => ({ row }));
  return { candidates, paged: false, ran: 'links' };
}

/** The link index: several filters read the smallest one's rows, found with the checks. */
async function fromLinks(run: ListRun): Promise<Found> {
  const { links, checks, plan, bounds, reads } = run;
  const [, smallest] = await allInOrder([
    runChecks(checks),
    links.length > 1 ? smallestFilter(reads, links, plan.who, bounds) : undefined,
  ] as const);
  return linkRows(run, smallest);
}

/** The start index over the window: every event, or the featured ones for `featured=true`. */
async function fromWindow({ q, range, checks, reads }: ListRun): Promise<Found> {
  await runChecks(checks);
  const candidates: Candidate[] = [];
  for await (const c of scopeRows(reads, undefined, range, undefined, q.featured)) candidates.push(c);
  return { candidates, paged: false, ran: 'window' };
}

/** The day counts of a tally scope, less another's (`ticketed=false`: every event less the ticketed ones). */
async function countDays(
  reads: ListReads,
  count: { scope: TallyScope; less?: TallyScope },
  who: TallyWho,
  bounds: DateBounds,
): Promise<{ total: number; days: Array<[string, number]> }> {
  const [of, less] = await Promise.all([
    reads.tallyDays(count.scope, who, bounds),
    count.less ? reads.tallyDays(count.less, who, bounds) : undefined,
  ]);
  return less ? lessDays(of, less) : of;
}

/**
 * One ordered stream and a tally: the day tallies count the list and tell where the page begins, so
 * only the page (and at most the rest of its first day) is read. A subtree flagged stale (a re-parent
 * or delete since the last reindex) is read through its links instead. `ticketed=false` reads the
 * event partition from the page's day, skipping the ticketed rows, which its count leaves out.
 */
async function fromTally(run: ListRun): Promise<Found> {
  const { q, plan, bounds, range, links, checks, keep, reads } = run;
  const count = tallyCount(links, q.featured, q.ticketed);
  // A tag filter that names no known tag counts nothing: the untallied path answers its 400.
  if (count === undefined) return links.length > 0 ? fromLinks(run) : fromWindow(run);
  const who = plan.who!;
  const tree = scopeTree(links);
  const { page, perPage } = plan.page;
  /**
   * Rows per read of the page's stream: a page and a margin until the tallies tell how many of the
   * driving filter's rows the page needs (page 1 starts reading before they do).
   */
  let rowsPerRead = Math.min(perPage + 25, 500);
  // Page 1 begins at the window's first listable row, wherever the tallies place it: its rows are
  // read now, together with the tallies, from the filter likely to drive (used if the tallies pick it).
  const likely = plan.early ? likelyDriver(links) : undefined;
  if (likely) rowsPerRead = Math.min(Math.ceil(perPage * likely.spread) + 25, links.length > 1 ? 1000 : 500);
  const firsts = likely
    ? [
        [
          likely.filter,
          started(scopeRows(reads, likely.filter, range, () => rowsPerRead, q.featured)),
        ] as const,
      ]
    : [];
  const early = new Map(firsts.map(([l, f]) => [l, f.rows]));
  // The checks come first: a request that names an unknown target is a 400, whatever else fails.
  const [, counted, stale, smallest] = await allInOrder([
    runChecks(checks),
    countDays(reads, count, who, bounds!),
    tree !== undefined ? reads.treeIsStale(tree) : false,
    links.length > 0 ? smallestFilter(reads, links, who, bounds) : undefined,
    allInOrder(firsts.map(([, f]) => f.ready)),
  ] as const);
  if (stale) return linkRows(run, smallest);

  // The tallies count every day, so the page's first row is found without reading the rows before it.
  const total = counted.total;
  const offset = (page - 1) * perPage;
  const start = pageStart(counted.days, offset);
  // The tallies know how many rows the page holds: the read stops at its last one.
  const pageRows = Math.min(perPage, total - offset);
  const candidates: Candidate[] = [];
  if (start) {
    // Read in pages a little larger than what is needed: without a Limit DynamoDB returns a full 1 MB
    // page. Several filters read the smallest one's rows, of which about total/size match the others.
    const wanted = start.skip + perPage;
    const spread = smallest && links.length > 1 ? smallest.size / Math.max(total, 1) : 1;
    rowsPerRead = Math.min(Math.ceil(wanted * spread) + 25, links.length > 1 ? 1000 : 500);
    const from = { low: start.from > range.low ? start.from : range.low, high: range.high };
    const single = smallest?.filter;
    const others = links.filter((l) => l !== single);
    const stream = early.get(single) ?? scopeRows(reads, single, from, rowsPerRead, q.featured);
    let skipped = 0;
    for await (const c of stream) {
      if (!keep(c.row) || (others.length > 0 && (await otherLinks(reads, [c.row], others)).length === 0))
        continue;
      if (skipped < start.skip) {
        skipped++;
        continue;
      }
      candidates.push(c);
      if (candidates.length >= pageRows) break;
    }
  }
  return { candidates, total, paged: true, ran: 'tally' };
}

/** One executor per driver. */
export const DRIVERS: Record<Driver, (run: ListRun) => Promise<Found>> = {
  ids: fromIds,
  search: fromSearch,
  links: fromLinks,
  window: fromWindow,
  tally: fromTally,
};
