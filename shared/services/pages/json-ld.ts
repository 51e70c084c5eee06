import type {
  Event as SchemaEvent,
  Offer,
  Organization,
  Person,
  Place,
  PostalAddress,
  WithContext,
} from 'schema-dts';
import { storedHtmlText } from '../../domain/html';
import { isoWithOffset } from '../../domain/wall-time';
import type { EventView } from '../events';
import type { LinkedView } from '../linked';
import { imageUrl, venuesOf } from './templates';

/**
 * schema.org JSON-LD of the public pages, as the reference plugin emits it in its event pages (the
 * properties Google reads for event results: name, startDate, location required; endDate, eventStatus,
 * eventAttendanceMode, organizer, offers, image, description recommended), typed by schema-dts. The
 * REST API's `json_ld` stays as the reference's API shows it; these are the page's.
 */

/** Drops empty strings and undefined: search engines read `"telephone": ""` as a wrong value. */
function compact<T>(o: T): T {
  return Object.fromEntries(
    Object.entries(o as Record<string, unknown>).filter(([, v]) => v !== undefined && v !== null && v !== ''),
  ) as T;
}

export function placeOf(v: LinkedView): Place {
  const address: PostalAddress = compact({
    '@type': 'PostalAddress',
    streetAddress: v.address,
    addressLocality: v.city,
    addressRegion: v.stateprovince || v.state || v.province,
    postalCode: v.zip,
    addressCountry: v.country,
  });
  const lat = Number(v.geo_lat);
  const lng = Number(v.geo_lng);
  return compact({
    '@type': 'Place',
    name: v.venue,
    url: v.url,
    address,
    telephone: v.phone,
    sameAs: v.website,
    ...(v.geo_lat !== undefined && Number.isFinite(lat) && Number.isFinite(lng)
      ? { geo: { '@type': 'GeoCoordinates', latitude: lat, longitude: lng } }
      : {}),
  } as Place);
}

/** Organizers are people or groups; the reference says Person, Google accepts either. */
export function organizerOf(o: LinkedView): Organization | Person {
  return compact({
    '@type': 'Organization',
    name: o.organizer,
    url: o.url,
    sameAs: o.website,
    telephone: o.phone,
    email: o.email,
  } as Organization);
}

/** The first plain number of the cost (`"10 – 25"` → 10), as Offer.price wants one number. */
const priceOf = (e: EventView): string | undefined =>
  (e.cost_details?.values ?? []).find((v: string) => /^\d+(\.\d+)?$/.test(v));

/** An event as schema.org reads it (with `@context` when it is the page's top object). */
export function eventJsonLd(
  e: EventView,
  o: { context?: boolean } = {},
): SchemaEvent | WithContext<SchemaEvent> {
  const [venue] = venuesOf(e);
  const organizers = (e.organizer as LinkedView[]).filter((x) => x && x.organizer);
  const price = priceOf(e);
  const offer: Offer | undefined =
    price === undefined
      ? undefined
      : compact({
          '@type': 'Offer',
          price,
          // The reference's default when the cost names no currency.
          priceCurrency: e.cost_details?.currency_code || 'USD',
          url: e.url,
          availability: 'https://schema.org/InStock',
          validFrom: isoWithOffset(e.date ?? '', e.date_utc ?? ''),
        } as Offer);
  const start = e.all_day ? e.start_date.slice(0, 10) : isoWithOffset(e.start_date, e.utc_start_date ?? '');
  const end = e.all_day ? e.end_date.slice(0, 10) : isoWithOffset(e.end_date, e.utc_end_date ?? '');
  const event = compact({
    '@type': 'Event',
    name: e.title,
    description: storedHtmlText(e.excerpt || e.description || '') || undefined,
    image: imageUrl(e.image),
    url: e.url,
    startDate: start,
    endDate: end,
    eventStatus: 'https://schema.org/EventScheduled',
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    location: venue ? placeOf(venue) : undefined,
    organizer:
      organizers.length === 0
        ? undefined
        : organizers.length === 1
          ? organizerOf(organizers[0]!)
          : organizers.map(organizerOf),
    offers: offer,
  } as SchemaEvent);
  return o.context ? ({ '@context': 'https://schema.org', ...event } as WithContext<SchemaEvent>) : event;
}

/** A venue's or organizer's page: the place or organization, with its upcoming events. */
export function linkedJsonLd(
  type: 'venue' | 'organizer',
  p: LinkedView,
  events: EventView[],
): WithContext<Place> | WithContext<Organization> {
  const own = type === 'venue' ? placeOf(p) : organizerOf(p);
  return compact({
    '@context': 'https://schema.org',
    ...(own as object),
    description: storedHtmlText(p.description ?? '') || undefined,
    event: events.map((e) => eventJsonLd(e)),
  }) as unknown as WithContext<Place>;
}

/** JSON-LD inside `<script>`: `<` escaped, so no text of a record can close the element. */
export const jsonLdScript = (data: object): string =>
  `<script type="application/ld+json">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>`;
