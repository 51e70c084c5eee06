import type { StoredCost } from './cost';
import type { EventTimes } from './event-times';
import type { PostRecord } from './records';

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
}

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
});

/** An event appears in lists unless hidden or trashed (reference §4.2). */
export const listable = (r: { status: string; hidden: boolean }) => !r.hidden && r.status !== 'trash';

/** Term, venue and organizer counts: published events for everyone, non-draft ones for editors. */
export const countsPublic = (status: string) => status === 'publish';
export const countsForEditors = (status: string) => !['draft', 'pending', 'trash'].includes(status);
