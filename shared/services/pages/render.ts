import { config, NAMESPACE } from '../../config';
import { DomainError } from '../../domain/errors';
import type { EventRecord } from '../../domain/event-record';
import { pagePath, type PageRoute, pageRouteOf } from '../../domain/page-paths';
import type { Taxonomy } from '../../domain/records';
import { wallAt } from '../../domain/wall-time';
import { nowStamps } from '../../domain/clock';
import { findTerms } from '../../repositories/term-lookup';
import type { Caller } from '../common';
import { readableEvent } from '../events';
import { listEvents } from '../events/list';
import { repositoryReads, withKnownPosts } from '../events/list';
import { type EventView, presentEvent } from '../events';
import { linkedPostReads } from '../linked';
import type { LinkedView } from '../linked';
import { organizerView } from '../linked';
import { eventJsonLd, jsonLdScript, linkedJsonLd } from './json-ld';
import {
  archiveHeading,
  errorPage,
  eventArticle,
  headTags,
  imageUrl,
  intoShell,
  linkedArticle,
  sitePath,
  summary,
  SITE_NAME,
  type TermLinks,
} from './templates';
import { archiveUrl, type TermPath } from '../terms';
import { venueView } from '../linked';
import { listTickets, ticketsRoot } from '../tickets';
import type { TicketView } from '../../schemas/tickets';
import { type FormState, ticketsSection } from './ticket-templates';

/**
 * The public pages at the addresses the API's `url` fields name: an event, a venue, an organizer (their
 * detail server-rendered, with head tags and JSON-LD for previews and search), a category's or tag's
 * view of the calendar. Everything is read as an anonymous visitor through the same services as the
 * API, so a page shows exactly what GET /events/by-slug/{slug} shows a visitor: drafts never.
 */
export type PageOutcome = 'ok' | 'not-found' | 'gone';

export interface RenderedPage {
  outcome: PageOutcome;
  html: string;
  /**
   * The page shows seats left (an event with tickets): browsers should not keep it (seats change with
   * every registration, the visitor's own included); the edge keeps it as long as any page.
   */
  seats?: boolean;
}

/** A visitor (no token); `rest_url`s as the site's API root shows them. */
export const visitor: Caller = { user: null, root: `${config.apiBaseUrl ?? config.siteUrl}/${NAMESPACE}` };
const venues = linkedPostReads(venueView);
const organizers = linkedPostReads(organizerView);
/** How many upcoming events a venue's or organizer's page lists. */
const UPCOMING = 20;

const NOUN: Record<PageRoute['kind'], string> = {
  event: 'event',
  venue: 'venue',
  organizer: 'organizer',
  category: 'category',
  tag: 'tag',
};

/**
 * The page for a request path, in the calendar page's HTML (`shell`). Unknown slugs are `not-found`, as
 * are records a visitor may not see (a draft's existence is not told); trashed ones are `gone`.
 */
export async function renderPage(pathname: string, shell: string): Promise<RenderedPage> {
  const route = pageRouteOf(pathname);
  if (!route) return { outcome: 'not-found', html: errorPage(false, 'page') };
  try {
    return { outcome: 'ok', ...(await render(route, shell)) };
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    const gone = e.code.endsWith('-no-longer-available');
    if (gone || e.kind === 'not-found' || e.kind === 'forbidden')
      return { outcome: gone ? 'gone' : 'not-found', html: errorPage(gone, NOUN[route.kind]) };
    throw e;
  }
}

async function render(route: PageRoute, shell: string): Promise<{ html: string; seats?: boolean }> {
  switch (route.kind) {
    case 'event':
      return eventPage(await readableEvent({ slug: route.slug }, visitor), shell);
    case 'venue':
    case 'organizer':
      return { html: await linkedPage(route.kind, route.slug, shell) };
    case 'category':
    case 'tag':
      return {
        html: await archivePage(
          route.kind === 'category' ? 'tribe_events_cat' : 'post_tag',
          route.slug,
          shell,
        ),
      };
  }
}

/**
 * An event's page. `form`: a registration the page refused (ticket-pages.ts), shown again with what
 * was sent and what was wrong, under a title that says so.
 */
export async function eventPage(
  event: EventRecord,
  shell: string,
  form?: FormState,
): Promise<{ html: string; seats: boolean }> {
  // The series' other dates and the tickets are read beside what the event links to, not after it.
  const [e, series, tickets] = await Promise.all([
    presentEvent(event, visitor, true),
    seriesDates(event),
    ticketsOf(event.id),
  ]);
  const head = headTags({
    title: e.title,
    description: summary(e.excerpt || e.description || '') || `${e.title}: ${e.start_date.slice(0, 10)}`,
    url: e.url,
    image: imageUrl(e.image),
    jsonLd: jsonLdScript(eventJsonLd(e, { context: true })),
  });
  // Tickets' sales windows are site-local wall times (docs/tickets.md).
  const section = ticketsSection(tickets, { slug: e.slug, nowWall: nowStamps().modified, form });
  const html = intoShell(shell, head, eventArticle(e, await termLinks(e), series, section));
  return { html: form ? html.replace('<title>', () => '<title>Error: ') : html, seats: tickets.length > 0 };
}

/** How many of a series' other upcoming dates an occurrence's page lists. */
const SERIES_DATES = 5;

/**
 * An occurrence's series (docs/recurrence.md): its other dates that have not ended, soonest first, as a
 * visitor lists them (cancelled ones are in the trash, so not among them). Nothing for a single event.
 */
async function seriesDates(e: EventRecord): Promise<EventView[] | undefined> {
  if (!e.data.series) return undefined;
  // Named by this occurrence, which is in hand: the list does not read it again to find its series.
  const { items } = await listEvents(
    { series: e.id, ends_after: nowWall(), per_page: SERIES_DATES + 1 } as Parameters<typeof listEvents>[0],
    visitor,
    withKnownPosts(repositoryReads, [e]),
  );
  return items.filter((o) => o.id !== e.id).slice(0, SERIES_DATES);
}

/** Tickets read as a visitor: their rest_urls name the tickets namespace. */
export const ticketCaller = () => ({ user: null, root: ticketsRoot() });

/** An event's tickets as a visitor sees them (docs/tickets.md: one Query of every ticket, filtered). */
async function ticketsOf(eventId: number): Promise<TicketView[]> {
  const { items } = await listTickets({ post_id: eventId, per_page: config.maxPerPage }, ticketCaller());
  return items;
}

/** The present as the list's date filters take it (a wall time, compared with each event's own). */
const nowWall = () => wallAt(Date.now());

/** The archive paths of an event's categories (their ancestors' slugs included) and of its tags. */
async function termLinks(e: EventView): Promise<TermLinks> {
  // The event's own categories come with their slug and parent: only the ancestors not among them are
  // read, a round per level (none for top-level categories).
  const byId = new Map<number, TermPath>(
    (e.categories ?? []).map((c) => [
      c.id,
      { id: c.id, taxonomy: 'tribe_events_cat', slug: c.slug, parent: c.parent },
    ]),
  );
  const tried = new Set<number>();
  for (let depth = 0; depth < 10; depth++) {
    const wanted = [...new Set([...byId.values()].map((t) => t.parent))].filter(
      (p) => p > 0 && !byId.has(p) && !tried.has(p),
    );
    if (wanted.length === 0) break;
    for (const id of wanted) tried.add(id);
    const found = await findTerms(
      'tribe_events_cat',
      wanted.map((id) => ({ id })),
    );
    for (const t of found) if (t) byId.set(t.id, t);
  }
  return {
    categories: (e.categories ?? []).map((c) => ({
      name: c.name,
      href: sitePath(archiveUrl(byId.get(c.id)!, byId)),
    })),
    tags: (e.tags ?? []).map((t) => ({ name: t.name, href: pagePath('tag', t.slug) })),
  };
}

async function linkedPage(type: 'venue' | 'organizer', slug: string, shell: string): Promise<string> {
  const reads = type === 'venue' ? venues : organizers;
  const p = (await reads.get({ slug }, visitor)) as LinkedView;
  // The events a visitor sees that have not ended, however far ahead (the list's default window stops
  // two years on), soonest first.
  const { items } = await listEvents(
    { [type]: [p.id], ends_after: nowWall(), per_page: UPCOMING } as Parameters<typeof listEvents>[0],
    visitor,
  );
  const name = type === 'venue' ? p.venue : p.organizer;
  const head = headTags({
    title: name,
    description: summary(p.description ?? '') || `Upcoming events ${type === 'venue' ? 'at' : 'by'} ${name}.`,
    url: p.url,
    image: imageUrl(p.image),
    jsonLd: jsonLdScript(linkedJsonLd(type, p, items)),
  });
  return intoShell(shell, head, linkedArticle(type, p, items));
}

async function archivePage(taxonomy: Taxonomy, slug: string, shell: string): Promise<string> {
  const [term] = await findTerms(taxonomy, [{ slug }]);
  if (!term) throw new DomainError('not-found', 'page-not-found', `No ${taxonomy} ${slug}.`);
  const byId = new Map([[term.id, term]]);
  for (let p = term.parent, depth = 0; p > 0 && depth < 10; depth++) {
    const [parent] = await findTerms(taxonomy, [{ id: p }]);
    if (!parent) break;
    byId.set(parent.id, parent);
    p = parent.parent;
  }
  const noun = taxonomy === 'post_tag' ? 'Tag' : 'Category';
  const head = headTags({
    title: `${noun}: ${term.name}`,
    description: summary(term.description) || `Events in ${term.name} – ${SITE_NAME}.`,
    url: archiveUrl(term, byId),
  });
  return intoShell(shell, head, archiveHeading(noun, term.name, term.description));
}
