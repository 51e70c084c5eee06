import type { PostRecord } from '../../domain/records';
import type { Infer } from '../../schemas/infer';
import type { venueUpdateBySlugBody } from '../../schemas/venue';
import { compact, type LinkedData, type LinkedPostView } from './post-type';
import { storedHtmlText } from '../../domain/html';

export const TEXT = [
  'address',
  'city',
  'country',
  'province',
  'state',
  'zip',
  'phone',
  'stateprovince',
] as const;
type TextKey = (typeof TEXT)[number];

/** A venue's own fields, stored under their API names in the post's `data` map. */
export interface VenueData extends LinkedData, Partial<Record<TextKey, string>> {
  website?: string;
  show_map: boolean;
  show_map_link: boolean;
  geo_lat?: number;
  geo_lng?: number;
}

type Venue = PostRecord<VenueData>;

/** Any venue body: create, update or update by slug. */
export type VenueBody = Partial<Infer<typeof venueUpdateBySlugBody>>;

/**
 * `stateprovince` as shown: the one sent, else the state for US addresses (or no country), or their
 * province when they have no state (decisions §9, as a real site keeps it), and the province elsewhere
 * (reference §7.2). Derived on read, so it follows later edits of those fields.
 */
export function stateProvince(d: VenueData): string | undefined {
  if (d.stateprovince) return d.stateprovince;
  const country = (d.country ?? '').trim().toLowerCase();
  return ['', 'us', 'usa', 'united states'].includes(country) ? d.state || d.province : d.province;
}

export const venueView: LinkedPostView<VenueData> = {
  type: 'venue',
  kind: 'VENUE',
  collection: 'venues',

  fields: (v: Venue) => ({
    address: v.data.address,
    city: v.data.city,
    country: v.data.country,
    province: v.data.province,
    state: v.data.state,
    zip: v.data.zip,
    phone: v.data.phone,
    website: v.data.website,
    stateprovince: stateProvince(v.data),
    geo_lat: v.data.geo_lat,
    geo_lng: v.data.geo_lng,
  }),

  always: (v: Venue) => ({ show_map: v.data.show_map, show_map_link: v.data.show_map_link }),

  /** schema.org Place with its PostalAddress (reference §3.2), plain values; `geo` when known. */
  jsonLd: (v: Venue, url: string) => ({
    '@type': 'Place',
    name: v.title,
    description: storedHtmlText(v.description),
    url,
    address: {
      '@type': 'PostalAddress',
      ...compact({
        streetAddress: v.data.address,
        addressLocality: v.data.city,
        addressRegion: stateProvince(v.data),
        postalCode: v.data.zip,
        addressCountry: v.data.country,
      }),
    },
    telephone: v.data.phone ?? '',
    sameAs: v.data.website ?? '',
    ...(v.data.geo_lat !== undefined
      ? { geo: { '@type': 'GeoCoordinates', latitude: v.data.geo_lat, longitude: v.data.geo_lng } }
      : {}),
  }),

  searchable: (v: Venue) => [
    v.data.address,
    v.data.city,
    v.data.province,
    v.data.state,
    stateProvince(v.data),
    v.data.zip,
    v.data.phone,
  ],
};
