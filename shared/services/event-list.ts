import type { DateTime } from 'luxon';
import { invalidParam, invalidParams } from '../domain/errors';
import type { EventData, EventRecord, EventRow } from '../domain/event-record';
import {
  type Candidate,
  geoMatch,
  type LinkFilter,
  matchesSearch,
  pageOfCandidates,
  rowFilter,
  tallyScope,
  tallyWho,
} from '../domain/event-query';
import { type DateBounds, dateBounds, startRange } from '../domain/event-window';
import { pageStart } from '../domain/tallies';
import { pointOf } from '../domain/geo';
import { type Page, pageOf } from '../domain/paging';
import { listStatuses } from '../domain/post-rules';
import { rowOf } from '../domain/event-record';
import type { Taxonomy } from '../domain/records';
import { termIdsOf } from '../domain/term-refs';
import { canSeeLinked } from '../domain/visibility';
import { eventsStartingBetween } from '../repositories/events';
import { eventsLinkedTo } from '../repositories/links';
import { getPosts } from '../repositories/posts';
import { tallyDays } from '../repositories/tallies';
import { listTerms } from '../repositories/terms';
import type { eventListQuery } from '../schemas/event';
import type { Infer } from '../schemas/infer';
import type { Caller } from './context';
import { type EventView, presentEvents } from './event-view';

export type EventListQuery = Infer<typeof eventListQuery>;

/** Resolves category or tag IDs / slugs (unknown → 400); categories bring their descendants. */
async function termTargets(param: 'categories' | 'tags', refs: Array<number | string>): Promise<LinkFilter> {
  const taxonomy: Taxonomy = param === 'categories' ? 'tribe_events_cat' : 'post_tag';
  const terms = await listTerms(taxonomy);
  const found = termIdsOf(param, refs, terms);
  const direct = found.size;
  for (let grew = true; grew && param === 'categories';) {
    grew = false;
    for (const t of terms)
      if (found.has(t.parent) && !found.has(t.id)) {
        found.add(t.id);
        grew = true;
      }
  }
  return { kind: 'TERM', ids: [...found], leaf: direct === 1 && found.size === 1 };
}

async function postTargets(param: 'venue' | 'organizer', ids: number[]): Promise<LinkFilter> {
  const posts = await getPosts(ids);
  const unknown = ids.filter((id) => posts.get(id)?.type !== param || posts.get(id)?.status === 'trash');
  if (unknown.length > 0)
    throw invalidParam(
      param,
      `${param} contains unknown ${param} IDs: ${unknown.join(', ')}.`,
      `rest_unknown_${param}`,
    );
  return { kind: param === 'venue' ? 'VENUE' : 'ORGANIZER', ids, leaf: ids.length === 1 };
}

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
 * GET /events. Candidates come from the narrowest source: the listed IDs, the link index of the
 * categories / tags / venues / organizers asked for (OR within a parameter, AND across them), or the
 * start-date index. When the request is one scope over whole days, the total comes from the day
 * tallies and only the events up to the requested page are read.
 */
export async function listEvents(
  q: EventListQuery,
  ctx: Caller & { now?: DateTime },
): Promise<Page<EventView>> {
  checkQuery(q);
  const statusFilter = listStatuses(q.status, ctx.user);
  const paging = pageOf(q);
  const bounds: DateBounds | undefined = q.include ? undefined : dateBounds(q, ctx.now);
  const range = bounds ? startRange(bounds) : { low: '0000', high: '9999~' };

  const links: LinkFilter[] = [];
  if (q.categories) links.push(await termTargets('categories', q.categories));
  if (q.tags) links.push(await termTargets('tags', q.tags));
  if (q.venue) links.push(await postTargets('venue', q.venue));
  if (q.organizer) links.push(await postTargets('organizer', q.organizer));
  if (q.post_parent !== undefined) {
    const parent = (await getPosts([q.post_parent])).get(q.post_parent);
    if (parent?.type !== 'event')
      throw invalidParam(
        'post_parent',
        'post_parent must be the ID of an existing event.',
        'rest_unknown_event',
      );
  }
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
  if (tallied) {
    // The tallies count every day, so the page's first row is found without reading the rows before it.
    const counted = await tallyDays(scope!, who!, bounds!);
    total = counted.total;
    const start = pageStart(counted.days, (paging.page - 1) * paging.perPage);
    candidates = [];
    paged = true;
    if (start) {
      // Read in pages a little larger than what is needed: without a Limit DynamoDB returns a full 1 MB page.
      const pageSize = Math.min(start.skip + paging.perPage + 25, 500);
      const from = { low: start.from > range.low ? start.from : range.low, high: range.high };
      const single = links[0];
      const stream = single
        ? candidatesOf(eventsLinkedTo(single.kind, single.ids[0]!, from, pageSize))
        : rowsOf(eventsStartingBetween(from, pageSize));
      let skipped = 0;
      for await (const c of stream) {
        if (!keep(c.row)) continue;
        if (skipped < start.skip) {
          skipped++;
          continue;
        }
        candidates.push(c);
        if (candidates.length >= paging.perPage) break;
      }
    }
  } else if (q.include) {
    const posts = await getPosts<EventData>(q.include);
    const linked = (e: EventRecord, kind: LinkFilter['kind']) =>
      kind === 'TERM'
        ? [...e.data.categories, ...e.data.tags]
        : kind === 'VENUE'
          ? e.data.venues
          : e.data.organizers;
    candidates = [...posts.values()]
      .filter((p) => p.type === 'event')
      .map((p) => p as EventRecord)
      // AND across parameters holds with include too: each link filter must match one of its targets.
      .filter((e) => links.every((lp) => lp.ids.some((id) => linked(e, lp.kind).includes(id))))
      .map((e) => ({ row: rowOf(e), record: e }));
  } else if (links.length > 0) {
    let ids: Map<number, EventRow> | undefined;
    for (const p of links) {
      const union = new Map<number, EventRow>();
      for (const target of p.ids)
        for await (const row of eventsLinkedTo(p.kind, target, range)) union.set(row.eventId, row);
      ids = ids ? new Map([...ids].filter(([id]) => union.has(id))) : union;
    }
    candidates = [...ids!.values()].map((row) => ({ row }));
  } else {
    candidates = [];
    for await (const c of rowsOf(eventsStartingBetween(range))) candidates.push(c);
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
  const records = (await withRecords(pageRows)).map((c) => c.record!);
  return {
    items: await presentEvents(records, { user: ctx.user, root: ctx.root, single: false }),
    total: total ?? candidates.length,
    paging,
  };
}
