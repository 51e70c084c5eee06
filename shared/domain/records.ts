/** The records this service keeps, as the repositories return them and the use cases change them. */

export type Taxonomy = 'tribe_events_cat' | 'post_tag';
export type PostType = 'event' | 'venue' | 'organizer';
/** What an event links to: a term (category or tag), a venue or an organizer. */
export type LinkKind = 'TERM' | 'VENUE' | 'ORGANIZER';
/**
 * What an event's link items name: a link, the series it is an occurrence of (docs/recurrence.md), or
 * the set of ticketed events (target 0: one set), which the event is in while it has a ticket
 * (docs/tickets.md).
 */
export type MemberKind = LinkKind | 'SERIES' | 'TICKETED';

/**
 * An event, venue or organizer. Fields every post has live at the top level; the type's own fields
 * live in `data`, which only that type's use cases write.
 */
export interface PostRecord<D extends object = Record<string, unknown>> {
  id: number;
  type: PostType;
  status: string;
  author: string;
  slug: string;
  title: string;
  description: string;
  excerpt: string;
  /** Publication date in the site's wall time and in UTC, `Y-m-d H:i:s`. */
  date: string;
  date_utc: string;
  modified: string;
  modified_utc: string;
  version: number;
  /** Sort key of the type's date index: the UTC publication date, or the event-local start for events. */
  sortDate: string;
  /** Events only: the event-local end, key of the end-date index. */
  sortEnd?: string;
  /**
   * Events only: how many tickets (cal/tickets/v1) the event has, absent for none. Kept by the ticket
   * writes in their own transaction (repositories/ticketed-events.ts), which raise the version; event
   * writes carry it over and keep the event's ticketed row and tally with it (`ticketed=`).
   */
  tickets?: number;
  /** Linked events counted like term counts (venues and organizers). */
  countPublic: number;
  countAll: number;
  data: D;
}

/** The fields every post has, whatever its type. */
export type PostHead = Pick<PostRecord, 'id' | 'type' | 'status' | 'author'>;

/** A category or tag. Counts are kept by event writes, in the event's own transaction. */
export interface TermRecord {
  id: number;
  taxonomy: Taxonomy;
  name: string;
  slug: string;
  description: string;
  parent: number;
  /** Published events carrying the term (what anonymous callers count). */
  countPublic: number;
  /** Events neither draft, pending nor trash (what editors count). */
  countAll: number;
  created: string;
  modified: string;
  version: number;
}
