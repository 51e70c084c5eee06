import { type DateBounds, startRange } from '../../../domain/date-bounds';
import type { EventData, EventRecord } from '../../../domain/event-record';
import {
  type Candidate,
  geoMatch,
  matchesSearch,
  pageOfCandidates,
  rowFilter,
} from '../../../domain/event-query';
import { pointOf } from '../../../domain/geo';
import { listWindow } from '../../../domain/list-window';
import type { Page } from '../../../domain/paging';
import { canSeeLinked } from '../../../domain/visibility';
import { pageWithLinked } from '../../../repositories/events';
import type { Caller } from '../../common';
import { DRIVERS, type Found } from './drivers';
import { type EventListPlan, type EventListQuery, planEventList } from './plan';
import { type ListReads, repositoryReads } from './reads';
import { resolveTargets } from './targets';
import { type EventView, presentEvents } from '..';

export type { EventListQuery } from './plan';

async function withRecords(reads: ListReads, cands: Candidate[]): Promise<Candidate[]> {
  const missing = cands.filter((c) => !c.record).map((c) => c.row.eventId);
  if (missing.length === 0) return cands;
  const records = await reads.getPosts<EventData>(missing);
  return cands.flatMap((c) => {
    const record = c.record ?? (records.get(c.row.eventId) as EventRecord | undefined);
    return record ? [{ row: c.row, record }] : [];
  });
}

/** The candidates that pass the search words and the venue coordinates (both need the records). */
async function refined(
  q: EventListQuery,
  ctx: Caller,
  reads: ListReads,
  candidates: Candidate[],
): Promise<Candidate[]> {
  if (q.search)
    candidates = (await withRecords(reads, candidates)).filter((c) => matchesSearch(c.record!, q.search!));
  if (q.geoloc !== undefined || q.geoloc_lat !== undefined) {
    candidates = await withRecords(reads, candidates);
    const venues = await reads.getPosts([...new Set(candidates.flatMap((c) => c.record!.data.venues))]);
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
  return candidates;
}

/** A list's page of candidates (rows, and records where read), its total, and how it was read. */
export interface ListedRows {
  plan: EventListPlan;
  ran: Found['ran'];
  candidates: Candidate[];
  total: number;
}

/**
 * The page of GET /events as candidate rows: planned (event-list-plan.ts), its link filters resolved
 * (event-list-targets.ts), read by the plan's executor (event-list-drivers.ts), then refined and paged.
 * `reads` are the repositories, or in-memory fakes in unit tests.
 */
export async function listEventRows(
  q: EventListQuery,
  ctx: Caller & { now?: Date },
  reads: ListReads = repositoryReads,
): Promise<ListedRows> {
  const plan = planEventList(q, ctx);
  const bounds: DateBounds | undefined = plan.window === 'none' ? undefined : await listWindow(q, ctx.now);
  const range = bounds ? startRange(bounds) : { low: '0000', high: '9999~' };
  const { links, checks } = await resolveTargets(q, reads);
  const keep = rowFilter({
    statuses: plan.statuses,
    bounds,
    featured: q.featured,
    postParent: q.post_parent,
    hidden: q.hide_from_listings,
    ticketed: q.ticketed,
  });
  const found = await DRIVERS[plan.driver]({ plan, q, bounds, range, links, checks, keep, reads });
  const candidates = await refined(
    q,
    ctx,
    reads,
    found.candidates.filter((c) => keep(c.row)),
  );
  return {
    plan,
    ran: found.ran,
    candidates: found.paged ? candidates : pageOfCandidates(candidates, plan.page),
    total: found.total ?? candidates.length,
  };
}

/**
 * GET /events. Candidates come from the narrowest source: the listed IDs, the search index (a search
 * with a word of two or more characters), the link index of the categories / tags / venues /
 * organizers asked for (OR within a parameter, AND across them), or the start-date index. When the
 * request is one scope over whole days, the total comes from the month tallies, which also tell where
 * the requested page begins: only that page (and at most the rest of its first day) is read.
 */
export async function listEvents(
  q: EventListQuery,
  ctx: Caller & { now?: Date },
  reads: ListReads = repositoryReads,
): Promise<Page<EventView>> {
  const { plan, candidates, total } = await listEventRows(q, ctx, reads);
  // The page's records and what they link to, in one batch (the rows name their links).
  const known = new Map(candidates.flatMap((c) => (c.record ? [[c.row.eventId, c.record] as const] : [])));
  const { records, linked } = await pageWithLinked(
    candidates.map((c) => c.row),
    known,
  );
  return {
    items: await presentEvents(records, { user: ctx.user, root: ctx.root, single: false }, linked),
    total,
    paging: plan.page,
  };
}
