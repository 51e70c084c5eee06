import {
  clearable,
  imageField,
  linkedBodies,
  linkedItemSchema,
  linkedListQuery,
  linkedPostFields,
  nameField,
  str,
  websiteField,
} from './linked-post';

const bool = (description: string) =>
  ({
    type: ['boolean', 'null'],
    description: `${description} true or false ("true"/"false"/"1"/"0"); null resets it to true.`,
  }) as const;

const coordinate = (limit: 90 | 180, description: string) =>
  ({ type: ['number', 'null'], minimum: -limit, maximum: limit, description }) as const;

/** Venue fields of spec §2.2 in its order, plus coordinates (decisions §5). */
const venueFields = {
  venue: nameField('venue'),
  ...linkedPostFields('venue'),
  show_map: bool('Whether events at the venue show a map.'),
  show_map_link: bool('Whether events at the venue show a map link.'),
  address: clearable('The venue street address.'),
  city: clearable('The venue city.'),
  country: clearable('The venue country.'),
  province: clearable('The venue province.'),
  state: clearable('The venue state.'),
  zip: clearable('The venue postal code.'),
  phone: clearable('The venue phone number.'),
  stateprovince: clearable(
    'State or province shown; when empty, derived from the state (US or no country; the province when there is no state) or the province elsewhere.',
  ),
  website: websiteField('venue'),
  image: imageField('venue'),
  geo_lat: coordinate(90, 'Latitude in degrees (with geo_lng).'),
  geo_lng: coordinate(180, 'Longitude in degrees (with geo_lat).'),
} as const;

const bodies = linkedBodies('venue', venueFields);
export const venueCreateBody = bodies.create;
export const venueUpdateBody = bodies.update;
export const venueUpdateBySlugBody = bodies.updateBySlug;

export const venueListQuery = linkedListQuery('venue', 'Venues');

const number = { type: 'number' } as const;
const boolean = { type: 'boolean' } as const;

/** A venue as every venue route returns it (reference §3.2). */
export const venueSchema = linkedItemSchema(
  'venue',
  {
    address: str,
    city: str,
    country: str,
    province: str,
    state: str,
    zip: str,
    phone: str,
    website: str,
    stateprovince: str,
    geo_lat: number,
    geo_lng: number,
    show_map: boolean,
    show_map_link: boolean,
  },
  ['show_map', 'show_map_link'],
);
