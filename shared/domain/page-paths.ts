import { isPossibleSlug } from './key-text';
import { slugKey } from './slugs';

/**
 * The public pages of the site that are not files of the calendar's build: the addresses every record's
 * `url` names (decisions: `<SITE_URL>/event/<slug>/`, `/venue/<slug>/`, `/organizer/<slug>/`,
 * `/events/category/<path>/`, `/tag/<slug>/`). One list for the page renderer, the local gateway and
 * the CloudFront behaviours (infra/site.ts), so the three cannot drift.
 */
const PREFIX = {
  event: '/event/',
  venue: '/venue/',
  organizer: '/organizer/',
  category: '/events/category/',
  tag: '/tag/',
} as const;
export const PAGE_PREFIXES = [
  PREFIX.event,
  PREFIX.venue,
  PREFIX.organizer,
  PREFIX.category,
  PREFIX.tag,
] as const;

export type PageRoute =
  | { kind: 'event' | 'venue' | 'organizer' | 'tag'; slug: string }
  /** A category's archive names its ancestors' slugs too; the last one is the category. */
  | { kind: 'category'; slug: string; path: string[] };

/**
 * The path of a page: a record's (`/event/<slug>/`), or a category's archive from its ancestors' slugs
 * to its own (`/events/category/<parent>/<slug>/`). A slug is fit for a path as it is (non-ASCII is
 * percent-encoded, decisions §9): encoding it again would name another address.
 */
export const pagePath = (kind: PageRoute['kind'], ...slugs: string[]): string =>
  `${PREFIX[kind]}${slugs.join('/')}/`;

const SLUG = /^[^\s/?#\\]+$/u;
/** A path's slug: no separators, and no longer than any record's (a longer one is the pages' 404). */
const isSlug = (part: string) => SLUG.test(part) && isPossibleSlug(slugKey(part));

/** Which page a request path names, or undefined when it is not one of the pages (nor a valid slug). */
export function pageRouteOf(pathname: string): PageRoute | undefined {
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  const prefix = PAGE_PREFIXES.find((p) => path.startsWith(p));
  if (!prefix) return undefined;
  const parts = path.slice(prefix.length).split('/').filter(Boolean);
  if (parts.length === 0 || !parts.every(isSlug)) return undefined;
  // A page's slugs may come encoded or decoded (decisions §9): both name the stored, encoded slug.
  const slugs = parts.map(slugKey);
  if (prefix === '/events/category/') return { kind: 'category', slug: slugs.at(-1)!, path: slugs };
  if (parts.length !== 1) return undefined;
  const kind = prefix.slice(1, -1) as 'event' | 'venue' | 'organizer' | 'tag';
  return { kind, slug: slugs[0]! };
}

/** Whether a request path is one of the pages' (by its prefix: a bad slug there is the pages' 404). */
export const isPagePath = (pathname: string): boolean => PAGE_PREFIXES.some((p) => pathname.startsWith(p));
