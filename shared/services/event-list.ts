import { invalidParam, invalidParams } from '../domain/errors';
import type { EventData, EventRecord, EventRow } from '../domain/event-record';
import {
  type Candidate,
  geoMatch,
  type LinkFilter,
  linkScope,
  matchesLinks,
  matchesSearch,
  pageOfCandidates,
  rowFilter,
  scopeTree,
  tallyScope,
  tallyWho,
} from '../domain/event-query';
import { type DateBounds, startRange } from '../domain/date-bounds';
import { listWindow } from '../domain/list-window';
import { pageStart, type TallyWho } from '../domain/tallies';
import { pointOf } from '../domain/geo';
import { indexedQueryWords } from '../domain/search';
import { type Page, pageOf } from '../domain/paging';
import { assertLinkable, listStatuses } from '../domain/post-rules';
import { rowOf } from '../domain/event-record';
import { termIdsOf } from '../domain/term-refs';
import { canSeeLinked } from '../domain/visibility';
import { eventsStartingBetween, pageWithLinked } from '../repositories/events';
import { eventsLinkedTo, eventsLinkedToAny, existingLinks } from '../repositories/links';
import type { PageSize } from '../db/query';
import { getPosts, type PostRecord } from '../repositories/posts';
import { eventsWithWordStart } from '../repositories/search-index';
import { tallyDays, treeIsStale } from '../repositories/tallies';
import { findTerms, termIdsOfSlugs } from '../repositories/term-lookup';
import { listTerms } from '../repositories/terms';
import type { eventListQuery } from '../schemas/event';
import type { Infer } from '../schemas/infer';
import { allInOrder } from './all-in-order';
import type { Caller } from './context';
import { type EventView, presentEvents } from './event-view';

export type EventListQuery = Infer<typeof eventListQuery>;

/**
 * A tag filter: slugs resolved to IDs through their guards (IDs need no read), and the check that
 * every tag exists, run later (see listEvents) so that it shares a round trip with the first read.
 */
async function tagTargets(
  refs: Array<number | string>,
): Promise<{ filter: LinkFilter; check: () => Promise<void> }> {
  const slugs = refs.filter((r): r is string => typeof r === 'string');
  const bySlug = slugs.length > 0 ? await termIdsOfSlugs('post_tag', slugs) : new Map<string, number>();
  const ids = refs.map((r) => (typeof r === 'number' ? r : bySlug.get(r)));
  const known = [...new Set(ids.filter((id): id is number => id !== undefined))];
  const check = async () => {
    const found =
      known.length > 0
        ? await findTerms(
            'post_tag',
            known.map((id) => ({ id })),
          )
        : [];
    const exists = new Set(found.flatMap((t) => (t ? [t.id] : [])));
    const unknown = refs.filter((_, i) => ids[i] === undefined || !exists.has(ids[i]!));
    if (unknown.length > 0)
      throw invalidParam(
        'tags',
        `tags contains unknown IDs or slugs: ${unknown.join(', ')}.`,
        'rest_unknown_term',
      );
  };
  return { filter: { kind: 'TERM', ids: known, leaf: known.length === 1 }, check };
}

/** Resolves category IDs / slugs (unknown → 400) with their descendants, from the (small) taxonomy. */
async function categoryTargets(refs: Array<number | string>): Promise<LinkFilter> {
  const terms = await listTerms('tribe_events_cat');
  const found = termIdsOf('categories', refs, terms);
  const direct = found.size;
  const [asked] = found;
  for (let grew = true; grew;) {
    grew = false;
    for (const t of terms)
      if (found.has(t.parent) && !found.has(t.id)) {
        found.add(t.id);
        grew = true;
      }
  }
  const leaf = direct === 1 && found.size === 1;
  // One category with children: its subtree tallies count it (unless flagged stale, see listEvents).
  const tree = direct === 1 && !leaf ? asked : undefined;
  return {
    kind: 'TERM',
    ids: [...found],
    leaf,
    estimate: terms.reduce((n, t) => n + (found.has(t.id) ? t.countAll : 0), 0),
    linkedToAny: terms.reduce((n, t) => n + t.countAll, 0),
    ...(tree !== undefined ? { tree } : {}),
    ...(direct === 1 ? { category: asked } : {}),
  };
}

/**
 * A venue / organizer filter, and the check that its IDs name existing, untrashed records of the
 * type: run later (see listEvents), so that it can share a round trip with the first read, unless
 * the records were read already (`read`, which also gives the filter its estimate).
 */
function postTargets(
  param: 'venue' | 'organizer',
  ids: number[],
  read?: ReadonlyMap<number, PostRecord<object>>,
): { filter: LinkFilter; check: () => Promise<void> } {
  const check = async () => assertLinkable(param, ids, read ?? (await getPosts(ids)));
  const filter: LinkFilter = { kind: param === 'venue' ? 'VENUE' : 'ORGANIZER', ids, leaf: ids.length === 1 };
  if (read) filter.estimate = ids.reduce((n, id) => n + (read.get(id)?.countAll ?? 0), 0);
  return { filter, check };
}

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
  links: LinkFilter[],
  who: TallyWho | undefined,
  bounds: DateBounds | undefined,
): Promise<{ filter: LinkFilter; size: number }> {
  if (links.length === 1 || !who || !bounds?.dayAligned)
    return { filter: links[0]!, size: Number.POSITIVE_INFINITY };
  const sizes = await Promise.all(
    links.map(async (l) => {
      const scope = linkScope(l);
      return scope ? (await tallyDays(scope, who, bounds)).total : Number.POSITIVE_INFINITY;
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
async function otherLinks(rows: EventRow[], others: LinkFilter[]): Promise<EventRow[]> {
  if (others.length === 0) return rows;
  const named = (row: EventRow, f: LinkFilter) => (f.kind === 'TERM' ? row.terms : row.posts);
  const unnamed = rows.filter((r) => others.some((f) => named(r, f) === undefined));
  const found = await existingLinks(
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

/** Runs the parameter checks together (see allInOrder). */
const runChecks = (checks: Array<() => Promise<void>>) => allInOrder(checks.map((c) => c()));

async function withRecords(cands: Candidate[]): Promise<Candidate[]> {
  const missing = cands.filter((c) => !c.record).map((c) => c.row.eventId);
  if (missing.length === 0) return cands;
  const records = await getPosts<EventData>(missing);
  return cands.flatMap((c) => {
    const record = c.record ?? (records.get(c.row.eventId) as EventRecord | undefined);
    return record ? [{ row: c.row, record }] : [];
  });
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
  filter: LinkFilter | undefined,
  from: { low: string; high: string },
  pageSize: PageSize | undefined,
  featured: boolean | undefined,
): AsyncIterable<Candidate> {
  return filter
    ? candidatesOf(eventsLinkedToAny(filter.kind, filter.ids, from, pageSize))
    : rowsOf(eventsStartingBetween(from, pageSize, featured === true));
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

/**
 * Events whose indexed words every query word of two or more characters starts (one Query per word,
 * together), read by ID and checked against the link filters; the full word-start match on the
 * records follows in listEvents. Reads the matches, not the calendar.
 */
async function searchCandidates(search: string, links: LinkFilter[]): Promise<Candidate[]> {
  const sets = (await Promise.all(indexedQueryWords(search).map(eventsWithWordStart))).sort(
    (a, b) => a.size - b.size,
  );
  const ids = [...sets[0]!].filter((id) => sets.every((s) => s.has(id)));
  const posts = await getPosts<EventData>(ids);
  return [...posts.values()]
    .filter((p) => p.type === 'event')
    .map((p) => p as EventRecord)
    .filter((e) => matchesLinks(e, links))
    .map((e) => ({ row: rowOf(e), record: e }));
}

function checkQuery(q: EventListQuery): void {
  if (q.ticketed === true)
    throw invalidParams({
      ticketed: {
        code: 'event-tickets-not-active',
        message: 'ticketed=true is not available: this service sells no tickets.',
      },
    });
  if ((q.geoloc_lat === undefined) !== (q.geoloc_lng === undefined)) {
    const missing = q.geoloc_lat === undefined ? 'geoloc_lat' : 'geoloc_lng';
    throw invalidParam(
      missing,
      'geoloc_lat and geoloc_lng must be given together.',
      'rest_missing_coordinate',
    );
  }
}

/**
 * GET /events. Candidates come from the narrowest source: the listed IDs, the search index (a search
 * with a word of two or more characters), the link index of the categories / tags / venues /
 * organizers asked for (OR within a parameter, AND across them), or the start-date index. When the
 * request is one scope over whole days, the total comes from the month tallies, which also tell where
 * the requested page begins: only that page (and at most the rest of its first day) is read.
 */
export async function listEvents(q: EventListQuery, ctx: Caller & { now?: Date }): Promise<Page<EventView>> {
  checkQuery(q);
  const statusFilter = listStatuses(q.status, ctx.user);
  const paging = pageOf(q);
  const bounds: DateBounds | undefined = q.include ? undefined : await listWindow(q, ctx.now);
  const range = bounds ? startRange(bounds) : { low: '0000', high: '9999~' };

  const links: LinkFilter[] = [];
  // Checks of the targets that need a read of their own; the tallied path runs them with its first read.
  const checks: Array<() => Promise<void>> = [];
  // The category taxonomy and the tags' slug guards are read together; with the taxonomy, the venues
  // and organizers asked for too, since that round trip is made anyway (their counts then tell which
  // filter is likely smaller, see likelyDriver). Without categories their check joins a later round.
  const postIds = q.categories ? [...(q.venue ?? []), ...(q.organizer ?? [])] : [];
  const [categories, tags, posts] = await allInOrder([
    q.categories ? categoryTargets(q.categories) : undefined,
    q.tags ? tagTargets(q.tags) : undefined,
    postIds.length > 0 ? getPosts(postIds) : undefined,
  ] as const);
  if (categories) links.push(categories);
  if (tags) {
    links.push(tags.filter);
    checks.push(tags.check);
  }
  for (const param of ['venue', 'organizer'] as const) {
    const ids = q[param];
    if (!ids) continue;
    const { filter, check } = postTargets(param, ids, posts);
    links.push(filter);
    checks.push(check);
  }
  if (q.post_parent !== undefined) {
    const id = q.post_parent;
    checks.push(async () => {
      const parent = (await getPosts([id])).get(id);
      if (parent?.type !== 'event')
        throw invalidParam(
          'post_parent',
          'post_parent must be the ID of an existing event.',
          'rest_unknown_event',
        );
    });
  }
  // A search with a word of two or more characters reads the search index, not the window.
  const searched = q.search !== undefined && indexedQueryWords(q.search).length > 0;
  const keep = rowFilter({ statuses: statusFilter, bounds, featured: q.featured, postParent: q.post_parent });

  // One ordered stream and a tally: read only up to the end of the requested page.
  const who = tallyWho(statusFilter);
  const scope = tallyScope(links, q.featured);
  const tallied =
    bounds?.dayAligned &&
    who &&
    scope &&
    !q.search &&
    q.geoloc === undefined &&
    q.geoloc_lat === undefined &&
    q.post_parent === undefined;

  let candidates: Candidate[];
  let total: number | undefined;
  /** The candidates are the requested page already (the tallied path reads only that). */
  let paged = false;
  let counted: Awaited<ReturnType<typeof tallyDays>> | undefined;
  /** The filter whose rows the tallied path reads (the others are checked on them) and its size. */
  let driver: { filter: LinkFilter; size: number } | undefined;
  /**
   * Rows per read of the page's stream: a page and a margin until the tallies tell how many of the
   * driving filter's rows the page needs (page 1 starts reading before they do).
   */
  let rowsPerRead = Math.min(paging.perPage + 25, 500);
  /** Page 1's rows of the filter likely to drive (of every event without one), read with the tallies. */
  let early = new Map<LinkFilter | undefined, AsyncIterable<Candidate>>();
  if (tallied) {
    // A category's subtree tallies may be flagged wrong (a re-parent or delete since the last reindex).
    const tree = scopeTree(links);
    // Page 1 begins at the window's first listable row, wherever the tallies place it: its rows are
    // read now, together with the tallies, from the filter likely to drive (used if the tallies pick it).
    const likely = paging.page === 1 ? likelyDriver(links) : undefined;
    if (likely)
      rowsPerRead = Math.min(Math.ceil(paging.perPage * likely.spread) + 25, links.length > 1 ? 1000 : 500);
    const firsts = likely
      ? [[likely.filter, started(scopeRows(likely.filter, range, () => rowsPerRead, q.featured))] as const]
      : [];
    early = new Map(firsts.map(([l, f]) => [l, f.rows]));
    // The checks come first: a request that names an unknown target is a 400, whatever else fails.
    const [, days, stale, smallest] = await allInOrder([
      runChecks(checks),
      tallyDays(scope!, who!, bounds!),
      tree !== undefined ? treeIsStale(tree) : false,
      links.length > 0 ? smallestFilter(links, who, bounds) : undefined,
      allInOrder(firsts.map(([, f]) => f.ready)),
    ] as const);
    if (!stale) counted = days;
    driver = smallest;
  } else {
    // Several filters read the rows of the smallest (its tallies tell) unless IDs or a search lead:
    // those tallies are read with the checks.
    const [, smallest] = await allInOrder([
      runChecks(checks),
      links.length > 1 && !q.include && !searched ? smallestFilter(links, who, bounds) : undefined,
    ] as const);
    driver = smallest;
  }
  if (counted) {
    // The tallies count every day, so the page's first row is found without reading the rows before it.
    total = counted.total;
    const offset = (paging.page - 1) * paging.perPage;
    const start = pageStart(counted.days, offset);
    // The tallies know how many rows the page holds: the read stops at its last one.
    const pageRows = Math.min(paging.perPage, total - offset);
    candidates = [];
    paged = true;
    if (start) {
      // Read in pages a little larger than what is needed: without a Limit DynamoDB returns a full 1 MB
      // page. Several filters read the smallest one's rows, of which about total/size match the others.
      const wanted = start.skip + paging.perPage;
      const spread = driver && links.length > 1 ? driver.size / Math.max(total, 1) : 1;
      rowsPerRead = Math.min(Math.ceil(wanted * spread) + 25, links.length > 1 ? 1000 : 500);
      const from = { low: start.from > range.low ? start.from : range.low, high: range.high };
      const single = driver?.filter;
      const others = links.filter((l) => l !== single);
      const stream = early.get(single) ?? scopeRows(single, from, rowsPerRead, q.featured);
      let skipped = 0;
      for await (const c of stream) {
        if (!keep(c.row) || (others.length > 0 && (await otherLinks([c.row], others)).length === 0)) continue;
        if (skipped < start.skip) {
          skipped++;
          continue;
        }
        candidates.push(c);
        if (candidates.length >= pageRows) break;
      }
    }
  } else if (q.include) {
    const posts = await getPosts<EventData>(q.include);
    candidates = [...posts.values()]
      .filter((p) => p.type === 'event')
      .map((p) => p as EventRecord)
      // AND across parameters holds with include too: each link filter must match one of its targets.
      .filter((e) => matchesLinks(e, links))
      .map((e) => ({ row: rowOf(e), record: e }));
  } else if (searched) {
    candidates = await searchCandidates(q.search!, links);
  } else if (links.length > 0) {
    // AND across filters: read the smallest one's rows, check the others on each row (see otherLinks).
    // The smallest was found with the checks (or, for a pair whose subtree tallies are stale, with them).
    const filter = driver?.filter ?? links[0]!;
    const union = new Map<number, EventRow>();
    for (const target of filter.ids)
      for await (const row of eventsLinkedTo(filter.kind, target, range)) union.set(row.eventId, row);
    const rows = [...union.values()].filter(keep);
    candidates = (
      await otherLinks(
        rows,
        links.filter((l) => l !== filter),
      )
    ).map((row) => ({ row }));
  } else {
    candidates = [];
    for await (const c of scopeRows(undefined, range, undefined, q.featured)) candidates.push(c);
  }

  candidates = candidates.filter((c) => keep(c.row));
  if (q.search)
    candidates = (await withRecords(candidates)).filter((c) => matchesSearch(c.record!, q.search!));
  if (q.geoloc !== undefined || q.geoloc_lat !== undefined) {
    candidates = await withRecords(candidates);
    const venues = await getPosts([...new Set(candidates.flatMap((c) => c.record!.data.venues))]);
    candidates = candidates.filter((c) => {
      const points = c.record!.data.venues.flatMap((v) => {
        const venue = venues.get(v);
        // Only venues the caller may see place an event (a trashed or draft venue keeps its links).
        const point =
          venue?.type === 'venue' && canSeeLinked(venue, ctx.user) ? pointOf(venue.data) : undefined;
        return point ? [point] : [];
      });
      return geoMatch(points, q);
    });
  }
  const pageRows = paged ? candidates : pageOfCandidates(candidates, paging);
  // The page's records and what they link to, in one batch (the rows name their links).
  const known = new Map(pageRows.flatMap((c) => (c.record ? [[c.row.eventId, c.record] as const] : [])));
  const { records, linked } = await pageWithLinked(
    pageRows.map((c) => c.row),
    known,
  );
  return {
    items: await presentEvents(records, { user: ctx.user, root: ctx.root, single: false }, linked),
    total: total ?? candidates.length,
    paging,
  };
}
