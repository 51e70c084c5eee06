import type { EventQuery, Term } from './api-types';
import { archiveFilter, calendarPath } from './page-route';

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
  /** The occurrences of one series (any occurrence's ID names it): the detail's "all dates" link. */
  series: string;
}

export interface PageState extends Filters {
  view: string;
  date: string;
}

/** The filters' keys, in the order the page counts them. */
export const FILTER_KEYS = [
  'search',
  'category',
  'tag',
  'venue',
  'organizer',
  'featured',
  'trash',
  'series',
] as const satisfies ReadonlyArray<keyof Filters>;

/** No filter applied (the *Clear* button's). */
export const NO_FILTERS: Filters = {
  search: '',
  category: '',
  tag: '',
  venue: '',
  organizer: '',
  featured: false,
  trash: false,
  series: '',
};

/** How many filters apply (the folded filters' button on a phone says so, filter-toggle.ts). */
export const activeFilters = (f: Filters): number => FILTER_KEYS.filter((k) => f[k]).length;

/** Categories in tree order, children indented under their parent. */
export function categoryTree(terms: Term[]): Array<{ term: Term; depth: number }> {
  const out: Array<{ term: Term; depth: number }> = [];
  const known = new Set(terms.map((t) => t.id));
  const walk = (parent: number, depth: number) => {
    for (const t of terms.filter((x) => (known.has(x.parent ?? 0) ? x.parent : 0) === parent)) {
      out.push({ term: t, depth });
      if (depth < 8) walk(t.id, depth + 1);
    }
  };
  walk(0, 0);
  return out;
}

export const VIEWS = ['dayGridMonth', 'timeGridWeek', 'timeGridDay', 'listMonth', 'listYear'] as const;

/** Whether `YYYY-MM-DD` names a day of the calendar (`2031-02-31` does not: it must not roll over). */
export function isDay(date: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return false;
  const d = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === date;
}

/** The `date` of the address when it is there but names no day (the page says so and shows today). */
export const badDate = (search: string): string | null => {
  const date = new URLSearchParams(search).get('date');
  return date !== null && date !== '' && !isDay(date) ? date : null;
};

export function readState(search: string, pathname: string): PageState {
  const q = new URLSearchParams(search);
  const view = q.get('view') ?? '';
  // A category's or tag's page applies its filter (page-route.ts).
  const archive = archiveFilter(pathname);
  return {
    view: (VIEWS as readonly string[]).includes(view) ? view : 'dayGridMonth',
    date: isDay(q.get('date') ?? '') ? q.get('date')! : '',
    search: q.get('search') ?? '',
    category: q.get('category') ?? archive.category ?? '',
    tag: q.get('tag') ?? archive.tag ?? '',
    venue: q.get('venue') ?? '',
    organizer: q.get('organizer') ?? '',
    featured: q.get('featured') === '1',
    trash: q.get('trash') === '1',
    series: /^\d+$/.test(q.get('series') ?? '') ? q.get('series')! : '',
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
  put('series', s.series);
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
  if (f.series) q.series = Number(f.series);
  return q;
}

/** The query string of API parameters (lists comma-separated, as the client sends them). */
export const searchOf = (q: EventQuery): URLSearchParams =>
  new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)]));

/** The address of the calendar's view for a state, the calendar being at `home` (page-route.ts). */
export function calendarUrl(s: PageState, home: string): string {
  const { path, omit } = calendarPath(s, home);
  return `${path}${stateQuery(omit ? { ...s, [omit]: '' } : s)}`;
}
