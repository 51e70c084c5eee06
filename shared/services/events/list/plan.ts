import { invalidParam } from '../../../domain/errors';
import { tallyWho } from '../../../domain/event-query';
import { type PageRequest, pageOf } from '../../../domain/paging';
import { listStatuses, type StatusFilter } from '../../../domain/post-rules';
import { atLeast } from '../../../domain/roles';
import { indexedQueryWords } from '../../../domain/search';
import type { TallyWho } from '../../../domain/tallies';
import type { eventListQuery } from '../../../schemas/event';
import type { Infer } from '../../../schemas/infer';
import type { Caller } from '../../common';

export type EventListQuery = Infer<typeof eventListQuery>;

/**
 * Where an event list's candidates come from (one executor each, event-list-drivers.ts):
 * - `ids`: the `include` IDs, read by key;
 * - `search`: the search index, one Query per query word of two or more characters;
 * - `links`: the link index of the smallest link filter (categories / tags / venue / organizer);
 * - `window`: the start index (every event, or the featured ones) over the window;
 * - `tally`: one ordered stream of one tally scope, read from where the day tallies place the page.
 */
export type Driver = 'ids' | 'search' | 'links' | 'window' | 'tally';

export type FilterParam = 'categories' | 'tags' | 'venue' | 'organizer' | 'series' | 'ticketed';

/** One link filter as the query names it: OR over its targets, AND with the other filters. */
export interface FilterPlan {
  param: FilterParam;
  refs: Array<number | string>;
}

/**
 * A tally scope as the query names it (its key follows once its refs are resolved): a category counts
 * alone when it is a leaf, as its subtree when it has children.
 */
export type ScopePlan =
  | { of: 'all' }
  | { of: 'featured' }
  | { of: 'ticketed' }
  | { of: 'category' | 'tag'; ref: number | string }
  | { of: 'venue' | 'organizer'; id: number }
  | { of: 'category+venue'; category: number | string; venue: number };

export interface EventListPlan {
  driver: Driver;
  /**
   * The link filters, in the order categories, tags, venue, organizer, series, ticketed (`ticketed=true`:
   * the ticketed events' rows, a set with a tally of its own; no refs).
   */
  filters: FilterPlan[];
  /** `featured`: true reads the featured events' own partition. */
  featured?: boolean;
  /** `ticketed`: true is a filter (above); false alone is counted as every event less the ticketed ones. */
  ticketed?: boolean;
  statuses: StatusFilter;
  /** The tally audience of the statuses, when one tally counts exactly them. */
  who?: TallyWho;
  /** `none` for include (IDs ignore the window), whole `days` (tallies can count them), or `strict`. */
  window: 'none' | 'days' | 'strict';
  /**
   * Every tally scope read: with the `tally` driver the counting scope first, then (category + venue)
   * the two filters' own scopes, which tell whose rows to read, or (`ticketed=false`) the ticketed
   * events' scope, whose day counts are taken from every event's; with `links`, the one-target
   * filters' scopes, which tell the smallest filter.
   */
  tallies: ScopePlan[];
  /** The category whose subtree-stale flag the `tally` driver reads: when set, `links` serves. */
  staleFlag?: number | string;
  /** Page 1 of the `tally` driver: the likely driver's first rows are read with the tallies. */
  early: boolean;
  page: PageRequest;
  /** `tallies`: the page's first row is found from the day counts; `sorted`: every candidate is sorted. */
  pageStart: 'tallies' | 'sorted';
  /** Targets checked by a read of their own (unknown → 400), in parameter order. */
  checks: Array<'tags' | 'venue' | 'organizer' | 'post_parent'>;
  /** Filters on the candidates' records, after the rows: search words, venue coordinates. */
  refine: Array<'search' | 'geoloc'>;
}

function checkQuery(q: EventListQuery): void {
  if ((q.geoloc_lat === undefined) !== (q.geoloc_lng === undefined)) {
    const missing = q.geoloc_lat === undefined ? 'geoloc_lat' : 'geoloc_lng';
    throw invalidParam(
      missing,
      'geoloc_lat and geoloc_lng must be given together.',
      'rest_missing_coordinate',
    );
  }
}

/** The link filters a query names. Term refs repeated name one target; venue and organizer IDs are kept as given. */
function filtersOf(q: EventListQuery): FilterPlan[] {
  const out: FilterPlan[] = [];
  for (const param of ['categories', 'tags'] as const)
    if (q[param]) out.push({ param, refs: [...new Set(q[param])] });
  for (const param of ['venue', 'organizer'] as const) if (q[param]) out.push({ param, refs: q[param] });
  // A series is read through its membership rows (docs/recurrence.md); no tally counts it.
  if (q.series !== undefined) out.push({ param: 'series', refs: [q.series] });
  // The ticketed events are a set with membership rows and a tally of their own (docs/tickets.md).
  if (q.ticketed === true) out.push({ param: 'ticketed', refs: [] });
  return out;
}

/** The scope of one filter with one target. */
function filterScope(f: FilterPlan): ScopePlan | undefined {
  if (f.param === 'ticketed') return { of: 'ticketed' };
  if (f.refs.length !== 1 || f.param === 'series') return undefined;
  const [ref] = f.refs as [number | string];
  if (f.param === 'categories') return { of: 'category', ref };
  if (f.param === 'tags') return { of: 'tag', ref };
  return { of: f.param, id: ref as number };
}

/**
 * The tally scope that counts a query's total exactly (see domain/event-query.ts tallyScope): every
 * event, the featured ones, one target of one filter, or one category with one venue.
 */
function countingScope(filters: FilterPlan[], featured: boolean | undefined): ScopePlan | undefined {
  if (filters.length === 0)
    return featured === undefined ? { of: 'all' } : featured ? { of: 'featured' } : undefined;
  if (featured !== undefined) return undefined;
  if (filters.length === 1) return filterScope(filters[0]!);
  const [category, venue] = filters as [FilterPlan, FilterPlan];
  return filters.length === 2 &&
    category.param === 'categories' &&
    category.refs.length === 1 &&
    venue.param === 'venue' &&
    venue.refs.length === 1
    ? { of: 'category+venue', category: category.refs[0]!, venue: venue.refs[0] as number }
    : undefined;
}

/**
 * The tally scopes that count a query's total (domain/event-query.ts tallyCount): the counting scope,
 * and for `ticketed=false` alone the ticketed events' scope, taken from every event's day by day.
 */
function countingScopes(
  filters: FilterPlan[],
  featured: boolean | undefined,
  ticketed: boolean | undefined,
): ScopePlan[] | undefined {
  if (ticketed === false)
    return filters.length === 0 && featured === undefined ? [{ of: 'all' }, { of: 'ticketed' }] : undefined;
  const scope = countingScope(filters, featured);
  return scope && [scope];
}

/**
 * GET /events planned from the query and the caller alone, before any read: which index drives the
 * candidates, which tallies are read, where the page starts. Invalid combinations are 400s here.
 * What only the data tells is left to the executors: a category is a leaf or has a subtree, a subtree's
 * tallies are flagged stale (then `links` serves), and which of two filters is smaller.
 */
export function planEventList(q: EventListQuery, caller: Pick<Caller, 'user'>): EventListPlan {
  checkQuery(q);
  const statuses = listStatuses(q.status, caller.user);
  // Hidden from listings is the author's choice: only editing roles list those events (to export them).
  if (q.hide_from_listings === true && !atLeast(caller.user, 'contributor'))
    throw invalidParam(
      'hide_from_listings',
      'Only editing roles can list the events hidden from listings.',
      'rest_forbidden_param',
    );
  const who = tallyWho(statuses);
  const page = pageOf(q);
  const filters = filtersOf(q);
  const window = q.include ? 'none' : q.strict_dates === true ? 'strict' : 'days';
  const geo = q.geoloc !== undefined || q.geoloc_lat !== undefined;
  const counting = countingScopes(filters, q.featured, q.ticketed);
  const scope = counting?.[0];
  // The tallies count listed events: hidden ones are counted from their rows.
  const tallied =
    window === 'days' &&
    who &&
    scope &&
    q.search === undefined &&
    !geo &&
    q.post_parent === undefined &&
    q.hide_from_listings !== true;
  // A search with a word of two or more characters reads the search index, not the window.
  const searched = q.search !== undefined && indexedQueryWords(q.search).length > 0;
  const driver: Driver = q.include
    ? 'ids'
    : tallied
      ? 'tally'
      : searched
        ? 'search'
        : filters.length > 0
          ? 'links'
          : 'window';
  const own = filters.flatMap((f) => filterScope(f) ?? []);
  const compared = filters.length > 1 && who !== undefined && window === 'days';
  const tallies =
    driver === 'tally'
      ? [...counting!, ...(filters.length > 1 ? own : [])]
      : driver === 'links' && compared
        ? own
        : [];
  const staleFlag =
    driver !== 'tally'
      ? undefined
      : scope!.of === 'category'
        ? scope!.ref
        : scope!.of === 'category+venue'
          ? scope!.category
          : undefined;
  return {
    driver,
    filters,
    ...(q.featured !== undefined ? { featured: q.featured } : {}),
    ...(q.ticketed !== undefined ? { ticketed: q.ticketed } : {}),
    statuses,
    ...(who ? { who } : {}),
    window,
    tallies,
    ...(staleFlag !== undefined ? { staleFlag } : {}),
    early: driver === 'tally' && page.page === 1,
    page,
    pageStart: driver === 'tally' ? 'tallies' : 'sorted',
    checks: [
      ...(q.tags ? (['tags'] as const) : []),
      ...(q.venue ? (['venue'] as const) : []),
      ...(q.organizer ? (['organizer'] as const) : []),
      ...(q.post_parent !== undefined ? (['post_parent'] as const) : []),
    ],
    refine: [...(q.search !== undefined ? (['search'] as const) : []), ...(geo ? (['geoloc'] as const) : [])],
  };
}
