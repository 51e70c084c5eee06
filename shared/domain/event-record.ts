import type { StoredCost } from './cost';
import type { EventTimes } from './event-times';
import type { LinkKind, PostRecord } from './records';

/** The event's own fields, kept in the post's `data` map. */
export interface EventData extends EventTimes {
  cost: StoredCost;
  /** Absent: the event's public page is its website (reference §3.1). */
  website?: string;
  showMap: boolean;
  showMapLink: boolean;
  hideFromListings: boolean;
  sticky: boolean;
  featured: boolean;
  image?: string;
  venues: number[];
  organizers: number[];
  categories: number[];
  tags: number[];
  parent?: number;
  /** Absent on a single event. */
  series?: Occurrence;
}

/** An occurrence's place in its series (docs/recurrence.md, "Storage"). */
export interface Occurrence {
  /** The series' ID: its first occurrence's event ID. */
  id: number;
  /** The series' `recurrence` lines and their English text, copied on every occurrence. */
  lines: string[];
  text: string;
  /** Where the rule placed this occurrence (event-local wall time), kept when it is moved. */
  start: string;
  /** Edited or moved on its own (scope=this). */
  exception: boolean;
  /** The body fields edited on this occurrence alone: a scope=all write leaves them as they are. */
  edited: string[];
}

export type EventRecord = PostRecord<EventData>;

/** Filter attributes copied onto every link item, so term / venue / organizer lists filter without the event. */
export interface EventRow {
  eventId: number;
  status: string;
  author: string;
  hidden: boolean;
  featured: boolean;
  start: string;
  end: string;
  utcEnd: string;
  parent?: number;
  /** The series the event is an occurrence of (`?series=` filters on it). */
  series?: number;
  /** The event has a ticket (`?ticketed=` filters on it); absent when it has none. */
  ticketed?: boolean;
  /**
   * The terms and the venues / organizers the event links to: a list page reads them in the same
   * batch as its events (the records decide; an ID missing here is read after them), and a second
   * link filter is checked on them. Absent on rows written before they were added.
   */
  terms?: number[];
  posts?: number[];
}

/** Whether an event has a ticket (PostRecord `tickets`, kept by the ticket writes). */
export const isTicketed = (e: Pick<EventRecord, 'tickets'>) => (e.tickets ?? 0) > 0;

export const rowOf = (e: EventRecord): EventRow => ({
  eventId: e.id,
  status: e.status,
  author: e.author,
  hidden: e.data.hideFromListings,
  featured: e.data.featured,
  start: e.data.start,
  end: e.data.end,
  utcEnd: e.data.utcEnd,
  ...(e.data.parent ? { parent: e.data.parent } : {}),
  ...(e.data.series ? { series: e.data.series.id } : {}),
  ...(isTicketed(e) ? { ticketed: true } : {}),
  terms: [...e.data.categories, ...e.data.tags],
  posts: [...e.data.venues, ...e.data.organizers],
});

/** An event appears in lists unless hidden or trashed (reference §4.2). */
export const listable = (r: { status: string; hidden: boolean }) => !r.hidden && r.status !== 'trash';

/** Term, venue and organizer counts: published events for everyone, non-draft ones for editors. */
export const countsPublic = (status: string) => status === 'publish';
export const countsForEditors = (status: string) => !['draft', 'pending', 'trash'].includes(status);

/** Where an event keeps the IDs it links to, by the body field that sets them. */
export type LinkField = 'categories' | 'tags' | 'venue' | 'organizer';

export interface EventLink {
  kind: LinkKind;
  id: number;
  field: LinkField;
}

/** Every record an event links to, in body-field order: categories, tags, venues, organizers. */
export function linksOf(e: EventRecord | undefined): EventLink[] {
  if (!e) return [];
  return [
    ...e.data.categories.map((id) => ({ kind: 'TERM' as const, id, field: 'categories' as const })),
    ...e.data.tags.map((id) => ({ kind: 'TERM' as const, id, field: 'tags' as const })),
    ...e.data.venues.map((id) => ({ kind: 'VENUE' as const, id, field: 'venue' as const })),
    ...e.data.organizers.map((id) => ({ kind: 'ORGANIZER' as const, id, field: 'organizer' as const })),
  ];
}

export const linkId = (l: { kind: LinkKind; id: number }) => `${l.kind}#${l.id}`;

/** What one linking event adds to a record's counts. */
export const linkWeight = (status: string) => ({
  p: countsPublic(status) ? 1 : 0,
  a: countsForEditors(status) ? 1 : 0,
});

/**
 * The terms whose counts an event write changes (`before` / `after` undefined: the event does not
 * exist): those linked or unlinked, and every linked one when the event's weight changes.
 */
export function termsRecounted(before: EventRecord | undefined, after: EventRecord | undefined): number[] {
  const termsOf = (e?: EventRecord) => new Set(e ? [...e.data.categories, ...e.data.tags] : []);
  const was = termsOf(before);
  const is = termsOf(after);
  const w0 = before ? linkWeight(before.status) : { p: 0, a: 0 };
  const w1 = after ? linkWeight(after.status) : { p: 0, a: 0 };
  const reweighted = w0.p !== w1.p || w0.a !== w1.a;
  const out = new Set<number>();
  for (const id of is) if (reweighted || !was.has(id)) out.add(id);
  for (const id of was) if (reweighted || !is.has(id)) out.add(id);
  return [...out];
}

/** An event links at most this many records in total (decisions §7); every write then fits the store. */
export const MAX_LINKED_RECORDS = 30;
