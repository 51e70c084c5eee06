import { PAGE_PREFIXES } from '../../shared/domain/page-paths';

/**
 * The one reader of the page's own address (the server's list of page addresses is
 * shared/domain/page-paths.ts; the server renders those pages, functions/pages, into this page's HTML
 * and the app starts on them):
 *   /event/<slug>/              the calendar with that event open
 *   /events/category/<path>/    the calendar filtered by the category (the last slug of the path)
 *   /tag/<slug>/                the calendar filtered by the tag
 *   /venue/<slug>/, /organizer/<slug>/   the calendar below the record's own content, unfiltered
 * The page takes a slug as its address gives it, decoded (the API takes a slug either way).
 */
export type PageAddress =
  { kind: 'event' | 'venue' | 'organizer' | 'tag' | 'category'; slug: string } | { kind: 'calendar' };

export interface ArchiveFilter {
  category?: string;
  tag?: string;
}

const decode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return '';
  }
};

/** Which page an address is: its kind and (decoded) slug, or the calendar's own. */
export function pageAddressOf(pathname: string): PageAddress {
  const prefix = PAGE_PREFIXES.find((p) => pathname.startsWith(p));
  if (!prefix) return { kind: 'calendar' };
  const rest = pathname.slice(prefix.length);
  const parts = (rest.endsWith('/') ? rest.slice(0, -1) : rest).split('/');
  if (parts.some((p) => p === '')) return { kind: 'calendar' };
  const kind = prefix.slice(1, -1).replace('events/', '') as
    'event' | 'venue' | 'organizer' | 'tag' | 'category';
  // A category's archive names its ancestors' slugs too: the last one is the category.
  if (kind !== 'category' && parts.length !== 1) return { kind: 'calendar' };
  return { kind, slug: decode(parts.at(-1)!) };
}

/** The filter a category's or tag's address applies. */
export function archiveFilter(pathname: string): ArchiveFilter {
  const page = pageAddressOf(pathname);
  if (page.kind === 'category') return { category: page.slug };
  return page.kind === 'tag' ? { tag: page.slug } : {};
}

/** The slug of the event an address names (`/event/<slug>/`), or null. */
export function eventSlugOf(pathname: string): string | null {
  const page = pageAddressOf(pathname);
  return page.kind === 'event' ? page.slug || null : null;
}

/**
 * The path of the calendar's own address for a state: a category's or tag's page while its filter is
 * the one applied (the query then leaves it out), else `/`.
 */
export function calendarPath(state: { category: string; tag: string }, pathname: string) {
  const page = pageAddressOf(pathname);
  const archive = archiveFilter(pathname);
  if (archive.category && archive.category === state.category && !state.tag)
    return { path: pathname, omit: 'category' as const };
  if (archive.tag && archive.tag === state.tag && !state.category)
    return { path: pathname, omit: 'tag' as const };
  // A venue's or organizer's page keeps its address: the calendar shows below its own content.
  if (page.kind === 'venue' || page.kind === 'organizer') return { path: pathname, omit: undefined };
  return { path: '/', omit: undefined };
}

/**
 * An event's page on this site: the `href` of its element in the calendar. A slug is already fit for
 * a path (non-ASCII is percent-encoded, decisions §9): encoding it again would name another address.
 */
export const eventPagePath = (slug: string): string => `/event/${slug}/`;

/**
 * The views of an event's tickets for those who manage its attendees (manage-views.ts), on the event's
 * own address so that a reload returns to them (the server renders the event's page; the app opens
 * the view on it):
 *   /event/<slug>/?manage=check-in      the door's check-in
 *   /event/<slug>/?manage=attendees     the attendee list
 */
export const MANAGE_VIEWS = ['check-in', 'attendees'] as const;
export type ManageView = (typeof MANAGE_VIEWS)[number];

/** The manage view an address names, with its event's slug, or null. */
export function manageViewOf(pathname: string, search: string): { slug: string; view: ManageView } | null {
  const slug = eventSlugOf(pathname);
  const view = new URLSearchParams(search).get('manage');
  return slug && (MANAGE_VIEWS as readonly string[]).includes(view ?? '')
    ? { slug, view: view as ManageView }
    : null;
}

/** The address of an event's manage view (its slug as the API gives it, as eventPagePath takes it). */
export const manageViewPath = (slug: string, view: ManageView): string =>
  `${eventPagePath(slug)}?manage=${view}`;

/**
 * The attendee's own page, the secret link of their registration (view, add to calendar, cancel):
 * `/attendee/<id>/?token=<token>`, the page the server renders for it (docs/tickets.md).
 */
export const attendeePagePath = (id: number, token: string): string =>
  `/attendee/${id}/?token=${encodeURIComponent(token)}`;
