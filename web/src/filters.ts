import type { EventQuery } from './api';

/**
 * The page's state lives in its URL, so any view can be bookmarked and shared:
 *   /?view=listMonth&date=2026-12-01&category=jazz&tag=accessible&venue=12&organizer=13&featured=1&search=piano
 * `category` and `tag` are slugs (the API takes slugs or IDs); `venue` and `organizer` are IDs.
 */
export interface Filters {
  search: string;
  category: string;
  tag: string;
  venue: string;
  organizer: string;
  featured: boolean;
  /** Signed-in users only: list the trash instead of the calendar's other statuses. */
  trash: boolean;
}

export interface PageState extends Filters {
  view: string;
  date: string;
}

export const VIEWS = ['dayGridMonth', 'timeGridWeek', 'timeGridDay', 'listMonth'] as const;

export function readState(search = location.search): PageState {
  const q = new URLSearchParams(search);
  const view = q.get('view') ?? '';
  return {
    view: (VIEWS as readonly string[]).includes(view) ? view : 'dayGridMonth',
    date: /^\d{4}-\d{2}-\d{2}$/.test(q.get('date') ?? '') ? q.get('date')! : '',
    search: q.get('search') ?? '',
    category: q.get('category') ?? '',
    tag: q.get('tag') ?? '',
    venue: q.get('venue') ?? '',
    organizer: q.get('organizer') ?? '',
    featured: q.get('featured') === '1',
    trash: q.get('trash') === '1',
  };
}

/** The URL query for a state (empty values left out). */
export function stateQuery(s: PageState): string {
  const q = new URLSearchParams();
  const put = (k: string, v: string) => v && q.set(k, v);
  put('view', s.view === 'dayGridMonth' ? '' : s.view);
  put('date', s.date);
  put('search', s.search);
  put('category', s.category);
  put('tag', s.tag);
  put('venue', s.venue);
  put('organizer', s.organizer);
  put('featured', s.featured ? '1' : '');
  put('trash', s.trash ? '1' : '');
  const text = q.toString();
  return text ? `?${text}` : '';
}

/** The API's filter parameters for GET /events and GET /events/ical. */
export function apiFilters(f: Filters, signedIn: boolean): EventQuery {
  const q: EventQuery = {};
  if (f.search.trim()) q.search = f.search.trim();
  // A category also matches its child categories (the API's rule), so "Music" shows Jazz too.
  if (f.category) q.categories = [f.category];
  if (f.tag) q.tags = [f.tag];
  if (f.venue) q.venue = [Number(f.venue)];
  if (f.organizer) q.organizer = [Number(f.organizer)];
  if (f.featured) q.featured = true;
  if (f.trash && signedIn) q.status = ['trash'];
  return q;
}

/** The query string of API parameters (lists comma-separated, as the client sends them). */
export const searchOf = (q: EventQuery): URLSearchParams =>
  new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]));
