import { decodeHTML } from 'entities';
import type { Schemas } from '../../client/src';
import { costToWrite } from '../../shared/domain/cost';
import type { SourceRecord } from './site-source';

/**
 * What a record of the source becomes in this service: the body of its create (and, without `slug`,
 * of its update; venues and organizers take no slug when created: their slug is set after, by a rename). Every field the importer carries is set, empty ones included, so that an update
 * clears at the target what was cleared at the source.
 */

export type CategoryBody = Schemas['CreateCategoryBody'];
export type TagBody = Schemas['CreateTagBody'];
export type VenueBody = Schemas['CreateVenueBody'];
export type OrganizerBody = Schemas['CreateOrganizerBody'];
export type EventBody = Schemas['CreateEventBody'];

/** Source IDs to target IDs for what an event links; undefined when the linked record was skipped. */
export interface Links {
  category(sourceId: number): number | undefined;
  tag(sourceId: number): number | undefined;
  venue(sourceId: number): number | undefined;
  organizer(sourceId: number): number | undefined;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : v == null ? '' : String(v));
/**
 * Plain text as the reference answers it: titles, names and term names pass WordPress's display filters
 * (`Rock &#038; Roll`, `&#8220;…&#8221;`, `Arts &amp; Culture`) and an event's website is HTML-escaped.
 * This service keeps the text itself (descriptions stay HTML, as the site had them).
 */
const text = (v: unknown): string => decodeHTML(str(v));
const bool = (v: unknown): boolean => v === true || v === 'true' || v === '1' || v === 1;
const STATUSES = new Set(['publish', 'future', 'draft', 'pending', 'private']);
const status = (v: unknown) => (STATUSES.has(str(v)) ? str(v) : 'publish') as EventBody['status'] & string;

/** The image's URL: the reference answers an object (or false), this service a URL or null. */
function imageUrl(v: unknown): string | null {
  if (typeof v === 'string' && /^https?:\/\//.test(v)) return v;
  const url = (v as { url?: unknown } | null)?.url;
  return typeof url === 'string' && /^https?:\/\//.test(url) ? url : null;
}

const number = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
};

export function categoryBody(c: SourceRecord, parent: number): CategoryBody {
  return { name: text(c.name), slug: str(c.slug), description: str(c.description), parent };
}

export function tagBody(t: SourceRecord): TagBody {
  return { name: text(t.name), slug: str(t.slug), description: str(t.description) };
}

export function venueBody(v: SourceRecord): VenueBody {
  const lat = number(v.geo_lat);
  const lng = number(v.geo_lng);
  return {
    venue: text(v.venue),
    status: status(v.status),
    description: str(v.description),
    address: str(v.address),
    city: str(v.city),
    country: str(v.country),
    province: str(v.province),
    state: str(v.state),
    zip: str(v.zip),
    phone: str(v.phone),
    website: str(v.website),
    image: imageUrl(v.image),
    show_map: v.show_map === undefined ? true : bool(v.show_map),
    show_map_link: v.show_map_link === undefined ? true : bool(v.show_map_link),
    geo_lat: lat !== null && lng !== null ? lat : null,
    geo_lng: lat !== null && lng !== null ? lng : null,
  };
}

export function organizerBody(o: SourceRecord): OrganizerBody {
  return {
    organizer: text(o.organizer),
    status: status(o.status),
    description: str(o.description),
    phone: str(o.phone),
    website: str(o.website),
    email: str(o.email),
    image: imageUrl(o.image),
  };
}

const ids = (v: unknown): number[] =>
  (Array.isArray(v) ? v : v && typeof v === 'object' ? [v] : [])
    .map((x) => (typeof x === 'number' ? x : (x as { id?: unknown })?.id))
    .filter((x): x is number => typeof x === 'number');

/** The linked records of an event the target does not have (skipped earlier), said per kind. */
export interface Missing {
  what: string;
  id: number;
}

/**
 * The body of an event. All-day events are sent as days: the reference gives them 00:00:00 to 23:59:59.
 * Its tags are the source's own: where it came from is kept in the import's state, not in public tags.
 */
export function eventBody(e: SourceRecord, links: Links): { body: EventBody; missing: Missing[] } {
  const missing: Missing[] = [];
  const map = (what: string, list: number[], to: (id: number) => number | undefined) =>
    list.flatMap((id) => {
      const target = to(id);
      if (target === undefined) missing.push({ what, id });
      return target === undefined ? [] : [target];
    });
  const allDay = bool(e.all_day);
  const day = (d: unknown) => str(d).slice(0, 10);
  // The reference answers the event's own page as its website when it has none.
  const website = text(e.website) === str(e.url) ? '' : text(e.website);
  const venues = map('venue', ids(e.venue), links.venue);
  const body: EventBody = {
    title: text(e.title),
    // WordPress gives drafts no slug: this service makes one from the title.
    ...(str(e.slug) ? { slug: str(e.slug) } : {}),
    status: status(e.status),
    description: str(e.description),
    excerpt: str(e.excerpt),
    start_date: allDay ? day(e.start_date) : str(e.start_date),
    end_date: allDay ? day(e.end_date) : str(e.end_date),
    timezone: str(e.timezone) || null,
    all_day: allDay,
    cost: costToWrite(
      str(e.cost),
      str((e.cost_details as { currency_symbol?: unknown } | undefined)?.currency_symbol),
    ),
    website,
    image: imageUrl(e.image),
    featured: bool(e.featured),
    sticky: bool(e.sticky),
    hide_from_listings: bool(e.hide_from_listings),
    show_map: bool(e.show_map),
    show_map_link: bool(e.show_map_link),
    categories: map('category', ids(e.categories), links.category),
    tags: map('tag', ids(e.tags), links.tag),
    venue: venues[0] ?? null,
    organizer: map('organizer', ids(e.organizer), links.organizer),
  };
  return { body, missing };
}
