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

// ---- The tickets' pages (docs/tickets.md, "Pages"): form posts and the attendee's own page ---------

/**
 * The registration form of an event's page posts here (`POST /event/<slug>/register/`): an address of
 * its own below the event's, so that its answer (the form again, with what was wrong) is never taken
 * for the event's cached page, and the calendar app, which starts on `/event/<slug>/`, leaves it be.
 */
export const registerPath = (slug: string): string => `${pagePath('event', slug)}register/`;

const ATTENDEE = '/attendee/';

/**
 * An attendee's own page, the secret link of their registration (`/attendee/<id>/?token=<token>`),
 * and its cancellation (`/attendee/<id>/cancel/`: GET asks, POST cancels). `done` says what just
 * happened there (`registered`, `cancelled`), for the page's notice.
 */
export function attendeePath(
  id: number,
  o: { token?: string; action?: 'cancel'; done?: 'registered' | 'cancelled' } = {},
): string {
  const query = new URLSearchParams();
  if (o.token !== undefined) query.set('token', o.token);
  if (o.done) query.set('done', o.done);
  const q = query.toString();
  return `${ATTENDEE}${id}/${o.action ? `${o.action}/` : ''}${q ? `?${q}` : ''}`;
}

export type TicketPageRoute =
  { kind: 'register'; slug: string } | { kind: 'attendee'; id: number; action?: 'cancel' };

/** Which of the tickets' pages a request path names, or undefined. */
export function ticketPageRouteOf(pathname: string): TicketPageRoute | undefined {
  const attendee = /^\/attendee\/([1-9]\d{0,15})\/(?:(cancel)\/)?$/.exec(pathname);
  if (attendee) {
    const id = Number(attendee[1]);
    return Number.isSafeInteger(id)
      ? { kind: 'attendee', id, ...(attendee[2] ? { action: 'cancel' as const } : {}) }
      : undefined;
  }
  if (!pathname.startsWith('/event/') || !pathname.endsWith('/register/')) return undefined;
  const route = pageRouteOf(pathname.slice(0, -'register/'.length));
  return route?.kind === 'event' ? { kind: 'register', slug: route.slug } : undefined;
}

/**
 * Which function answers a page request (deployed: the HTTP API's routes, infra/site.ts; locally: the
 * gateway): `render` (functions/pages/render-page, read-only, behind CloudFront's cache) for GET and
 * HEAD of the public pages; `tickets` (functions/pages/ticket-pages, which writes) for the form posts
 * and the attendee's own pages, never cached. One table for both, so they cannot drift.
 */
export const PAGE_ROUTES: ReadonlyArray<{
  methods: ReadonlyArray<'GET' | 'HEAD' | 'POST'>;
  prefix: string;
  fn: 'render' | 'tickets';
}> = [
  ...PAGE_PREFIXES.map((prefix) => ({ methods: ['GET', 'HEAD'] as const, prefix, fn: 'render' as const })),
  { methods: ['POST'], prefix: PREFIX.event, fn: 'tickets' },
  { methods: ['GET', 'HEAD', 'POST'], prefix: ATTENDEE, fn: 'tickets' },
];

/**
 * The page function a request goes to (by its method and prefix: a bad slug there is the pages' 404),
 * or undefined when none does (the API's then).
 */
export const pageFunctionOf = (method: string, pathname: string): 'render' | 'tickets' | undefined =>
  PAGE_ROUTES.find((r) => pathname.startsWith(r.prefix) && (r.methods as readonly string[]).includes(method))
    ?.fn;

/**
 * The CloudFront path patterns of the tickets' pages (infra/site.ts): uncached, every method, the
 * viewer's headers and query passed on. Listed before the public pages' `/event/*`, which they refine.
 */
export const TICKET_PAGE_PATTERNS = [`${PREFIX.event}*/register/`, `${ATTENDEE}*`] as const;
