import type { EventData, EventRecord } from './event-record';

/**
 * Which record fields a body field of an event write sets, so that an occurrence can keep the fields
 * edited on it alone when every occurrence of its series changes (scope=all, docs/recurrence.md).
 */

/** The shared fields of a series' occurrences (an event's own fields, without times and series). */
export type SharedFields = Pick<
  EventRecord,
  'title' | 'description' | 'excerpt' | 'status' | 'author' | 'date' | 'date_utc'
> & { data: Omit<EventData, 'series'> };

type Copy = (from: SharedFields, to: EventRecord) => void;

const own =
  (k: 'title' | 'description' | 'excerpt' | 'status' | 'author'): Copy =>
  (from, to) => {
    to[k] = from[k];
  };

const data =
  <K extends keyof Omit<EventData, 'series'>>(k: K): Copy =>
  (from, to) => {
    if (from.data[k] === undefined) delete to.data[k];
    else to.data[k] = from.data[k] as EventData[K];
  };

/** Body fields and what each copies; times are the series' own (TIME_FIELDS). */
const COPIES: Record<string, Copy> = {
  title: own('title'),
  description: own('description'),
  excerpt: own('excerpt'),
  status: own('status'),
  author: own('author'),
  date: (from, to) => {
    to.date = from.date;
    to.date_utc = from.date_utc;
  },
  cost: data('cost'),
  website: data('website'),
  show_map: data('showMap'),
  show_map_link: data('showMapLink'),
  hide_from_listings: data('hideFromListings'),
  sticky: data('sticky'),
  featured: data('featured'),
  image: data('image'),
  categories: data('categories'),
  tags: data('tags'),
  venue: data('venues'),
  organizer: data('organizers'),
};

/** Body fields that place an occurrence in time: edited on one, it keeps its own times. */
export const TIME_FIELDS = ['start_date', 'end_date', 'all_day', 'timezone'];

/** The body fields an edit names, as an occurrence records them (`date_utc` is `date`). */
export function editedFields(sent: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const f of sent)
    if (f === 'date_utc') out.add('date');
    else if (f in COPIES || TIME_FIELDS.includes(f)) out.add(f);
  return [...out].sort();
}

/** `to` with every shared field of `from`, except those in `keep` (edited on `to` alone). */
export function withShared(from: SharedFields, to: EventRecord, keep: readonly string[] = []): EventRecord {
  const next: EventRecord = { ...to, data: { ...to.data } };
  for (const [field, copy] of Object.entries(COPIES)) if (!keep.includes(field)) copy(from, next);
  return next;
}

/** `template` with the fields a write sent taken from `written` (an occurrence after that write). */
export function sharedWith(
  template: SharedFields,
  written: EventRecord,
  sent: readonly string[],
): SharedFields {
  const next = { ...template, data: { ...template.data } } as SharedFields;
  const asRecord = next as unknown as EventRecord;
  for (const field of sent) COPIES[field]?.(written as unknown as SharedFields, asRecord);
  return next;
}
