import { DateTime } from 'luxon';
import { keys, type LinkKind } from '../db/keys';
import { queryItems } from '../db/query';
import { TABLE } from '../db/table';
import type { User } from '../http/auth';
import { invalidParam, invalidParams } from '../http/errors';
import { listReply, pageOf } from '../http/paging';
import type { Reply } from '../http/respond';
import type { ApiUrls } from '../http/urls';
import { type EventRecord, type EventRow, rowOf } from '../repositories/event-record';
import { getPosts } from '../repositories/posts';
import { tallyTotal } from '../repositories/tallies';
import { listTerms } from '../repositories/terms';
import type { Taxonomy } from '../db/keys';
import { type DateBounds, dateBounds, inBounds, startRange, type WindowQuery } from './event-window';
import { presentEvents } from './event-view';
import { listStatuses, passesStatus, STATUSES, type StatusFilter } from './post-rules';
import { haversineKm, venueCoordinates } from './geo';
import { termIdsOf } from './term-refs';

export interface EventListQuery extends WindowQuery {
  page?: number;
  per_page?: number;
  search?: string;
  categories?: Array<number | string>;
  tags?: Array<number | string>;
  venue?: number[];
  organizer?: number[];
  featured?: boolean;
  status?: string[];
  geoloc?: boolean;
  geoloc_lat?: number;
  geoloc_lng?: number;
  geoloc_radius?: number;
  include?: number[];
  post_parent?: number;
  ticketed?: boolean;
}

interface Candidate {
  row: EventRow;
  record?: EventRecord;
}

type Ctx = { user: User | null; urls: ApiUrls; now?: DateTime };

/** Resolves category or tag IDs / slugs (unknown → 400); categories bring their descendants. */
async function termTargets(
  param: 'categories' | 'tags',
  refs: Array<number | string>,
): Promise<{ ids: number[]; leaf: boolean }> {
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
  return { ids: [...found], leaf: direct === 1 && found.size === 1 };
}

async function postTargets(param: 'venue' | 'organizer', ids: number[]): Promise<number[]> {
  const posts = await getPosts(ids);
  const unknown = ids.filter((id) => posts.get(id)?.type !== param || posts.get(id)?.status === 'trash');
  if (unknown.length > 0)
    throw invalidParam(
      param,
      `${param} contains unknown ${param} IDs: ${unknown.join(', ')}.`,
      `rest_unknown_${param}`,
    );
  return ids;
}

/** Rows of the events linked to any of `targets`, in start order per target. */
async function* linkedRows(
  kind: LinkKind,
  target: number,
  range: { low: string; high: string },
  limit?: number,
): AsyncGenerator<EventRow> {
  const ix = TABLE.indexes.byAssignment;
  for await (const item of queryItems({
    IndexName: ix.name,
    KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :low AND :high',
    ExpressionAttributeNames: { '#pk': ix.partitionKey, '#sk': ix.sortKey },
    ExpressionAttributeValues: {
      ':pk': keys.assignmentPartition(kind, target),
      ':low': range.low,
      ':high': range.high,
    },
    Limit: limit,
  }))
    yield item.row as EventRow;
}

async function* allEvents(range: { low: string; high: string }, limit?: number): AsyncGenerator<Candidate> {
  const ix = TABLE.indexes.byStart;
  for await (const item of queryItems({
    IndexName: ix.name,
    KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :low AND :high',
    ExpressionAttributeNames: { '#pk': ix.partitionKey, '#sk': ix.sortKey },
    ExpressionAttributeValues: { ':pk': keys.typePartition('event'), ':low': range.low, ':high': range.high },
    Limit: limit,
  })) {
    const record = item as unknown as EventRecord;
    yield { row: rowOf(record), record };
  }
}

const byStart = (a: EventRow, b: EventRow) =>
  a.start < b.start ? -1 : a.start > b.start ? 1 : a.eventId - b.eventId;

/** Every word of the search in title, excerpt or description, case-insensitively (reference §4.6). */
function matchesSearch(e: EventRecord, search: string): boolean {
  const text = `${e.title}\n${e.excerpt}\n${e.description}`.toLowerCase();
  return search
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => text.includes(w));
}

async function withRecords(cands: Candidate[]): Promise<Candidate[]> {
  const missing = cands.filter((c) => !c.record).map((c) => c.row.eventId);
  if (missing.length === 0) return cands;
  const records = await getPosts<EventRecord['data']>(missing);
  return cands.flatMap((c) => {
    const record = c.record ?? (records.get(c.row.eventId) as EventRecord | undefined);
    return record ? [{ row: c.row, record }] : [];
  });
}

function tallyWho(filter: StatusFilter): 'p' | 'a' | undefined {
  if (filter.ownerOfUnpublished) return undefined;
  const s = [...filter.statuses].sort().join(',');
  if (s === 'publish') return 'p';
  if (
    s ===
    STATUSES.filter((x) => x !== 'trash')
      .sort()
      .join(',')
  )
    return 'a';
  return undefined;
}

/**
 * GET /events. Candidates come from the narrowest source: the listed IDs, the link index of the
 * categories / tags / venues / organizers asked for (OR within a parameter, AND across them), or the
 * start-date index. When the request is one scope over whole days, the total comes from the day
 * tallies and only the events up to the requested page are read.
 */
export async function listEvents(q: EventListQuery, ctx: Ctx): Promise<Reply> {
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
  const statusFilter = listStatuses(q.status, ctx.user);
  const passes = passesStatus(statusFilter);
  const paging = pageOf(q);
  const bounds: DateBounds | undefined = q.include ? undefined : dateBounds(q, ctx.now);
  const range = bounds ? startRange(bounds) : { low: '0000', high: '9999~' };

  const linkParams: Array<{ kind: LinkKind; ids: number[]; leaf: boolean }> = [];
  if (q.categories) linkParams.push({ kind: 'TERM', ...(await termTargets('categories', q.categories)) });
  if (q.tags) linkParams.push({ kind: 'TERM', ...(await termTargets('tags', q.tags)) });
  if (q.venue)
    linkParams.push({ kind: 'VENUE', ids: await postTargets('venue', q.venue), leaf: q.venue.length === 1 });
  if (q.organizer)
    linkParams.push({
      kind: 'ORGANIZER',
      ids: await postTargets('organizer', q.organizer),
      leaf: q.organizer.length === 1,
    });
  if (q.post_parent !== undefined) {
    const parent = (await getPosts([q.post_parent])).get(q.post_parent);
    if (parent?.type !== 'event')
      throw invalidParam(
        'post_parent',
        'post_parent must be the ID of an existing event.',
        'rest_unknown_event',
      );
  }

  const keep = (row: EventRow) =>
    passes(row) &&
    !row.hidden &&
    (bounds === undefined || inBounds(bounds, row.start, row.end)) &&
    (q.featured === undefined || row.featured === q.featured) &&
    (q.post_parent === undefined || row.parent === q.post_parent);

  // One ordered stream and a tally: read only up to the end of the requested page.
  const who = tallyWho(statusFilter);
  const single =
    linkParams.length === 1 && linkParams[0]!.leaf && q.featured === undefined ? linkParams[0]! : undefined;
  const scope =
    linkParams.length === 0
      ? q.featured === undefined
        ? 'ALL'
        : q.featured
          ? 'FEATURED'
          : undefined
      : single
        ? `${single.kind}#${single.ids[0]}`
        : undefined;
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
  if (tallied) {
    total = await tallyTotal(scope!, who!, bounds!);
    const needed = Math.min(total, paging.page * paging.perPage);
    candidates = [];
    // Read in pages a little larger than what is needed: without a Limit DynamoDB returns a full 1 MB page.
    const pageSize = Math.min(needed + 25, 500);
    const stream: AsyncIterable<Candidate> = single
      ? mapRows(linkedRows(single.kind, single.ids[0]!, range, pageSize))
      : allEvents(range, pageSize);
    if (needed > 0)
      for await (const c of stream) {
        if (!keep(c.row)) continue;
        candidates.push(c);
        if (candidates.length >= needed) break;
      }
  } else if (q.include) {
    const posts = await getPosts<EventRecord['data']>(q.include);
    const linked = (e: EventRecord, kind: LinkKind) =>
      kind === 'TERM'
        ? [...e.data.categories, ...e.data.tags]
        : kind === 'VENUE'
          ? e.data.venues
          : e.data.organizers;
    candidates = [...posts.values()]
      .filter((p) => p.type === 'event')
      .map((p) => p as EventRecord)
      // AND across parameters holds with include too: each link filter must match one of its targets.
      .filter((e) => linkParams.every((lp) => lp.ids.some((id) => linked(e, lp.kind).includes(id))))
      .map((e) => ({ row: rowOf(e), record: e }));
  } else if (linkParams.length > 0) {
    let ids: Map<number, EventRow> | undefined;
    for (const p of linkParams) {
      const union = new Map<number, EventRow>();
      for (const target of p.ids)
        for await (const row of linkedRows(p.kind, target, range)) union.set(row.eventId, row);
      ids = ids ? new Map([...ids].filter(([id]) => union.has(id))) : union;
    }
    candidates = [...ids!.values()].map((row) => ({ row }));
  } else {
    candidates = [];
    for await (const c of allEvents(range)) candidates.push(c);
  }

  candidates = candidates.filter((c) => keep(c.row));
  if (q.search)
    candidates = (await withRecords(candidates)).filter((c) => matchesSearch(c.record!, q.search!));
  if (q.geoloc !== undefined || q.geoloc_lat !== undefined) {
    candidates = await withRecords(candidates);
    const coords = await venueCoordinates(candidates.flatMap((c) => c.record!.data.venues));
    candidates = candidates.filter((c) => {
      const points = c.record!.data.venues.map((v) => coords.get(v)).filter((p) => p !== undefined);
      if (q.geoloc !== undefined && points.length > 0 !== q.geoloc) return false;
      if (q.geoloc_lat === undefined) return true;
      const center = { lat: q.geoloc_lat, lng: q.geoloc_lng! };
      return points.some((p) => haversineKm(center, p!) <= (q.geoloc_radius ?? 25));
    });
  }
  candidates.sort((a, b) => byStart(a.row, b.row));
  const pageRows = candidates.slice((paging.page - 1) * paging.perPage, paging.page * paging.perPage);
  const records = (await withRecords(pageRows)).map((c) => c.record!);
  return listReply({
    key: 'events',
    items: await presentEvents(records, { user: ctx.user, root: ctx.urls.root, single: false }),
    total: total ?? candidates.length,
    paging,
    urls: ctx.urls,
    pastEnd: 'event',
    itemsFirst: true,
  });
}

async function* mapRows(rows: AsyncIterable<EventRow>): AsyncGenerator<Candidate> {
  for await (const row of rows) yield { row };
}
