import { type EventRecord, type EventRow, isTicketed } from './event-record';
import { type DateBounds, inBounds } from './date-bounds';
import { haversineKm, type Point } from './geo';
import type { PageRequest } from './paging';
import { passesStatus, type StatusFilter } from './post-rules';
import { htmlText, indexWords, matchesWordStarts } from './search';
import { STATUSES } from './statuses';
import {
  allScope,
  featuredScope,
  linkedScope,
  type TallyScope,
  type TallyWho,
  ticketedScope,
  treeScope,
  venueTreeScope,
} from './tallies';

/**
 * The pure part of the event list (reference §4.3–4.6): which rows a query keeps, which tally scope
 * can count it, the order, and the page. The use case feeds it candidates read from the indexes.
 */

/** A candidate of the list: its filter row, and the record once it has been read. */
export interface Candidate {
  row: EventRow;
  record?: EventRecord;
}

export interface RowFilter {
  statuses: StatusFilter;
  bounds?: DateBounds;
  featured?: boolean;
  postParent?: number;
  /** `ticketed=`: the events that have a ticket (their rows say so), or those that have none. */
  ticketed?: boolean;
  /** Only the events hidden from listings (an editor's `hide_from_listings=true`), instead of the listed ones. */
  hidden?: boolean;
}

/** What every candidate must pass, whatever index it came from. */
export function rowFilter(f: RowFilter): (row: EventRow) => boolean {
  const passes = passesStatus(f.statuses);
  return (row) =>
    passes(row) &&
    Boolean(row.hidden) === (f.hidden === true) &&
    (f.bounds === undefined || inBounds(f.bounds, row.start, row.end)) &&
    (f.featured === undefined || row.featured === f.featured) &&
    (f.postParent === undefined || row.parent === f.postParent) &&
    (f.ticketed === undefined || (row.ticketed === true) === f.ticketed);
}

/** The tally audience of a status filter, when one tally counts exactly those statuses. */
export function tallyWho(filter: StatusFilter): TallyWho | undefined {
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
 * One link filter of the query: OR over its targets. `leaf`: one target with no children. `tree`: the
 * one category asked for, when `ids` are it and its descendants and its subtree tallies are exact.
 */
export interface LinkFilter {
  /**
   * `SERIES`: the occurrences of one series (`?series=`), which no tally counts. `TICKETED`: the events
   * that have a ticket (`?ticketed=true`), one set (ids `[0]`) with a tally of its own.
   */
  kind: 'TERM' | 'VENUE' | 'ORGANIZER' | 'SERIES' | 'TICKETED';
  ids: number[];
  leaf: boolean;
  tree?: number;
  /** The one category asked for (a leaf or not): `ids` are it and its descendants. */
  category?: number;
  /**
   * Events linked to the targets over the whole calendar, from their records' counts, when already
   * read: a guess at which filter is smallest before the tallies tell (listEvents, page 1).
   */
  estimate?: number;
  /** With `estimate` on a category filter: events linked to any category (a stand-in for the calendar). */
  linkedToAny?: number;
}

/** The tally scope that counts one link filter exactly, if any. */
export function linkScope(l: LinkFilter): TallyScope | undefined {
  if (l.tree !== undefined) return treeScope(l.tree);
  if (l.kind === 'SERIES') return undefined;
  if (l.kind === 'TICKETED') return ticketedScope;
  return l.leaf && l.ids.length === 1 ? linkedScope({ kind: l.kind, id: l.ids[0]! }) : undefined;
}

/**
 * The tally scope that counts a query's total exactly, if any: everything, featured events, one leaf
 * term / venue / organizer or one category's subtree (with no other filter), or one category with one
 * venue.
 */
export function tallyScope(links: LinkFilter[], featured: boolean | undefined): TallyScope | undefined {
  if (links.length === 0) return featured === undefined ? allScope : featured ? featuredScope : undefined;
  if (featured !== undefined) return undefined;
  if (links.length === 1) return linkScope(links[0]!);
  const [category, venue] = links;
  return links.length === 2 &&
    category!.category !== undefined &&
    venue!.kind === 'VENUE' &&
    venue!.ids.length === 1
    ? venueTreeScope(venue!.ids[0]!, category!.category)
    : undefined;
}

/**
 * What counts a query's total exactly, if anything: one tally scope (tallyScope; `ticketed=true` is a
 * link filter with a scope of its own), or, for `ticketed=false` alone, every event less the ticketed
 * ones (two tallies, their day counts subtracted). No tally pairs `ticketed=false` with a filter.
 */
export function tallyCount(
  links: LinkFilter[],
  featured: boolean | undefined,
  ticketed: boolean | undefined,
): { scope: TallyScope; less?: TallyScope } | undefined {
  if (ticketed === false)
    return links.length === 0 && featured === undefined
      ? { scope: allScope, less: ticketedScope }
      : undefined;
  const scope = tallyScope(links, featured);
  return scope && { scope };
}

/** The category whose subtree tallies a scope relies on (their stale flag decides whether they count). */
export function scopeTree(links: LinkFilter[]): number | undefined {
  return links.length === 1 ? links[0]!.tree : links[0]?.category;
}

/** Whether an event's record passes every link filter (OR within one, AND across them). */
export function matchesLinks(e: EventRecord, links: LinkFilter[]): boolean {
  const linked = (kind: LinkFilter['kind']) =>
    kind === 'TERM'
      ? [...e.data.categories, ...e.data.tags]
      : kind === 'VENUE'
        ? e.data.venues
        : kind === 'SERIES'
          ? e.data.series
            ? [e.data.series.id]
            : []
          : kind === 'TICKETED'
            ? isTicketed(e)
              ? [0]
              : []
            : e.data.organizers;
  return links.every((lp) => {
    const ids = linked(lp.kind);
    return lp.ids.some((id) => ids.includes(id));
  });
}

/** List order: start, then ID. */
export const byStart = (a: EventRow, b: EventRow) =>
  a.start < b.start ? -1 : a.start > b.start ? 1 : a.eventId - b.eventId;

/** The requested page of candidates, in list order. */
export function pageOfCandidates<T extends { row: EventRow }>(
  candidates: T[],
  { page, perPage }: PageRequest,
): T[] {
  return [...candidates].sort((a, b) => byStart(a.row, b.row)).slice((page - 1) * perPage, page * perPage);
}

/** The texts a search reads: the title, and the text of the excerpt and the description. */
const searchTexts = (e: Pick<EventRecord, 'title' | 'excerpt' | 'description'>) => [
  e.title,
  htmlText(e.excerpt),
  htmlText(e.description),
];

/** Every query word starts a word of the title, excerpt or description (decisions §8). */
export function matchesSearch(e: EventRecord, search: string): boolean {
  return matchesWordStarts(search, searchTexts(e));
}

/** The words of an event the search index holds (see indexWords). */
export const eventIndexWords = (e: Pick<EventRecord, 'title' | 'excerpt' | 'description'>) =>
  indexWords(searchTexts(e));

/** The geoloc filters: whether the venues have coordinates, and whether one lies within the radius. */
export function geoMatch(
  points: Point[],
  q: { geoloc?: boolean; geoloc_lat?: number; geoloc_lng?: number; geoloc_radius?: number },
): boolean {
  if (q.geoloc !== undefined && points.length > 0 !== q.geoloc) return false;
  if (q.geoloc_lat === undefined || q.geoloc_lng === undefined) return true;
  const center = { lat: q.geoloc_lat, lng: q.geoloc_lng };
  return points.some((p) => haversineKm(center, p) <= (q.geoloc_radius ?? 25));
}
