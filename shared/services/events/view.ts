import { costCurrency, costDisplay, costValues } from '../../domain/cost';
import { details, isoWithOffset } from '../../domain/wall-time';
import type { EventRecord } from '../../domain/event-record';
import { globalId, publicUrl } from '../../domain/post-rules';
import type { PostRecord, TermRecord } from '../../domain/records';
import { withRevision } from '../../domain/revisions';
import { canSeeLinked, seesAll } from '../../domain/visibility';
import { imageView, storedHtmlText } from '../../domain/html';
import { type Linked, linkedRecordsOf } from '../../repositories/events';
import type { eventSchema } from '../../schemas/event';
import type { Infer } from '../../schemas/infer';
import type { Caller } from '../common';
import { linkedPostJsonLd, linkedPostView } from '../linked';
import { embeddedTermView } from '../terms';

/** An event as the API shows it (reference §3.1), typed by the contract's schema. */
export type EventView = Infer<typeof eventSchema>;

interface ViewCtx extends Caller {
  /** Single GETs add json_ld, to the event and to its embedded venue and organizers. */
  single: boolean;
}

const image = (url: string | undefined) => (url ? imageView(url) : false);

/**
 * Events as every event route returns them (reference §3.1, key order included). The records they
 * link to are read in one batch, unless the caller read them already (`linked`, with the page).
 */
export async function presentEvents(
  events: EventRecord[],
  ctx: ViewCtx,
  linked?: Linked,
): Promise<EventView[]> {
  const { terms, posts } = linked ?? (await linkedRecordsOf(events));
  const editor = seesAll(ctx.user);
  return events.map((e) => {
    const d = e.data;
    const url = publicUrl('event', e.slug);
    const visiblePosts = (ids: number[], type: 'venue' | 'organizer') =>
      ids
        .map((id) => posts.get(id))
        .filter((p): p is PostRecord => !!p && p.type === type && canSeeLinked(p, ctx.user));
    const venues = visiblePosts(d.venues, 'venue');
    const organizers = visiblePosts(d.organizers, 'organizer');
    const termList = (ids: number[]) =>
      ids
        .map((id) => terms.get(id))
        .filter((t): t is TermRecord => !!t)
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((t) => embeddedTermView(t, { root: ctx.root, seesAll: editor }));
    const venueViews = venues.map((v) => linkedPostView(v, { root: ctx.root, single: ctx.single }));
    const values = costValues(d.cost);
    const currency = costCurrency(d.cost);
    const view: EventView = {
      id: e.id,
      global_id: globalId(e.id),
      global_id_lineage: [globalId(e.id)],
      author: e.author,
      status: e.status as EventView['status'],
      date: e.date,
      date_utc: e.date_utc,
      modified: e.modified,
      modified_utc: e.modified_utc,
      url,
      rest_url: `${ctx.root}/events/${e.id}`,
      title: e.title,
      description: e.description,
      excerpt: e.excerpt,
      slug: e.slug,
      image: image(d.image),
      all_day: d.allDay,
      start_date: d.start,
      start_date_details: details(d.start),
      end_date: d.end,
      end_date_details: details(d.end),
      utc_start_date: d.utcStart,
      utc_start_date_details: details(d.utcStart),
      utc_end_date: d.utcEnd,
      utc_end_date_details: details(d.utcEnd),
      timezone: d.timezone,
      timezone_abbr: d.timezoneAbbr,
      cost: costDisplay(d.cost),
      cost_details: {
        currency_symbol: currency.symbol,
        currency_code: d.cost.code,
        currency_position: currency.position,
        values,
      },
      website: d.website ?? url,
      show_map: d.showMap,
      show_map_link: d.showMapLink,
      hide_from_listings: d.hideFromListings,
      sticky: d.sticky,
      featured: d.featured,
      categories: termList(d.categories),
      tags: termList(d.tags),
      venue: venueViews.length === 0 ? [] : venueViews.length === 1 ? venueViews[0] : venueViews,
      organizer: organizers.map((o) => linkedPostView(o, { root: ctx.root, single: ctx.single })),
      // Series fields come last (docs/recurrence.md): a client that knows nothing of series ignores them.
      series_id: d.series?.id ?? null,
      recurrence: d.series ? [...d.series.lines] : null,
      recurrence_text: d.series?.text ?? null,
      occurrence_start: d.series?.start ?? null,
      is_exception: d.series?.exception ?? false,
    };
    if (ctx.single) {
      const numeric = values.filter((v) => /^\d+(\.\d+)?$/.test(v));
      view.json_ld = {
        '@context': 'http://schema.org',
        '@type': 'Event',
        name: e.title,
        // Plain text, as schema.org expects and venues and organizers give (decisions §9).
        description: storedHtmlText(e.excerpt || e.description),
        ...(d.image ? { image: d.image } : {}),
        url,
        eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
        startDate: isoWithOffset(d.start, d.utcStart),
        endDate: isoWithOffset(d.end, d.utcEnd),
        ...(venues[0] ? { location: linkedPostJsonLd(venues[0]) } : {}),
        ...(organizers.length === 1
          ? { organizer: linkedPostJsonLd(organizers[0]!) }
          : organizers.length > 1
            ? { organizer: organizers.map(linkedPostJsonLd) }
            : {}),
        ...(numeric.length > 0
          ? {
              offers: {
                '@type': 'Offer',
                price: numeric[0],
                priceCurrency: d.cost.code || 'USD',
                url,
                category: 'primary',
                availability: 'inStock',
                validFrom: isoWithOffset(e.date, e.date_utc),
              },
            }
          : {}),
        performer: 'Organization',
      };
    }
    return withRevision(view, e);
  });
}

/** One event, as every event route shows it; `single` adds json_ld (single GETs). */
export async function presentEvent(e: EventRecord, ctx: Caller, single = false): Promise<EventView> {
  return (await presentEvents([e], { user: ctx.user, root: ctx.root, single }))[0]!;
}
