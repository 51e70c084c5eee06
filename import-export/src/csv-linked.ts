import type { Organizer, Venue } from '../../client/src';
import { CellError, flag } from './csv-columns';
import { keepProtection } from '../../shared/domain/csv-formulas';
import type { OrganizerBody, VenueBody } from './site-records';

/**
 * The reference plugin's venue and organizer CSV files (its importer's columns, in its order), then a
 * few of ours that the export writes so that a round trip keeps what those columns cannot say (all
 * optional on import). A row is one record; its name is the only column required.
 */

export const VENUE_COLUMNS = [
  'Venue Name',
  'Venue Description',
  'Venue Country',
  'Venue Address',
  'Venue Address 2',
  'Venue City',
  'Venue State/Province',
  'Venue Zip',
  'Venue Phone',
  'Venue Website',
  'Venue Featured Image',
  'Venue Slug',
  'Venue Status',
  'Venue Show Map',
  'Venue Show Map Link',
  'Venue Latitude',
  'Venue Longitude',
] as const;

export const ORGANIZER_COLUMNS = [
  'Organizer Name',
  'Organizer Description',
  'Organizer Email',
  'Organizer Website',
  'Organizer Phone',
  'Organizer Featured Image',
  'Organizer Slug',
  'Organizer Status',
] as const;

type Cells = Partial<Record<string, string>>;
/** A cell trimmed, keeping a protection against formulas (csv-formulas.ts). */
const cell = (row: Cells, column: string) => keepProtection(row[column] ?? '');

const STATUSES = new Set(['publish', 'future', 'draft', 'pending', 'private']);
function status(row: Cells, column: string): VenueBody['status'] {
  const s = cell(row, column).toLowerCase();
  if (s && !STATUSES.has(s)) throw new CellError(column, `"${s}" is not one of ${[...STATUSES].join(', ')}`);
  return (s || 'publish') as VenueBody['status'];
}

function coordinate(row: Cells, column: string, limit: number): number | null {
  const v = cell(row, column);
  if (!v) return null;
  const n = Number(v);
  if (!Number.isFinite(n) || Math.abs(n) > limit)
    throw new CellError(column, `"${v}" is not a number from -${limit} to ${limit}`);
  return n;
}

const US = new Set(['united states', 'united states of america', 'us', 'usa']);

/**
 * A venue row. `Venue State/Province` is a state for a venue in the United States and a province
 * elsewhere (the service shows either as `stateprovince`); `Venue Address 2` follows the address after
 * a comma (the service has one address line). Without a show-map cell a venue shows its map, as the
 * reference's venues do.
 */
export function rowToVenue(row: Cells): VenueBody {
  const venue = cell(row, 'Venue Name');
  if (!venue) throw new CellError('Venue Name', 'a venue needs a name');
  const region = cell(row, 'Venue State/Province');
  const country = cell(row, 'Venue Country');
  const inUs = US.has(country.toLowerCase());
  const lat = coordinate(row, 'Venue Latitude', 90);
  const lng = coordinate(row, 'Venue Longitude', 180);
  if ((lat === null) !== (lng === null))
    throw new CellError(
      lat === null ? 'Venue Latitude' : 'Venue Longitude',
      'latitude and longitude go together',
    );
  const shown = (column: string) => (cell(row, column) ? flag(row, column) : true);
  return {
    venue,
    status: status(row, 'Venue Status'),
    description: keepProtection(row['Venue Description'] ?? ''),
    address: [cell(row, 'Venue Address'), cell(row, 'Venue Address 2')].filter(Boolean).join(', '),
    city: cell(row, 'Venue City'),
    country,
    state: inUs ? region : '',
    province: inUs ? '' : region,
    zip: cell(row, 'Venue Zip'),
    phone: cell(row, 'Venue Phone'),
    website: cell(row, 'Venue Website'),
    image: cell(row, 'Venue Featured Image') || null,
    show_map: shown('Venue Show Map'),
    show_map_link: shown('Venue Show Map Link'),
    geo_lat: lat,
    geo_lng: lng,
  };
}

export function rowToOrganizer(row: Cells): OrganizerBody {
  const organizer = cell(row, 'Organizer Name');
  if (!organizer) throw new CellError('Organizer Name', 'an organizer needs a name');
  return {
    organizer,
    status: status(row, 'Organizer Status'),
    description: keepProtection(row['Organizer Description'] ?? ''),
    email: cell(row, 'Organizer Email'),
    website: cell(row, 'Organizer Website'),
    phone: cell(row, 'Organizer Phone'),
    image: cell(row, 'Organizer Featured Image') || null,
  };
}

const yes = (b: unknown) => (b ? '1' : '0');
const imageOf = (v: unknown) => (typeof v === 'string' ? v : ((v as { url?: string } | null)?.url ?? ''));
const text = (v: unknown) => (v == null ? '' : String(v));

export function venueToRow(v: Venue): Record<(typeof VENUE_COLUMNS)[number], string> {
  return {
    'Venue Name': v.venue,
    'Venue Description': text(v.description),
    'Venue Country': text(v.country),
    'Venue Address': text(v.address),
    'Venue Address 2': '',
    'Venue City': text(v.city),
    'Venue State/Province': text(v.stateprovince || v.state || v.province),
    'Venue Zip': text(v.zip),
    'Venue Phone': text(v.phone),
    'Venue Website': text(v.website),
    'Venue Featured Image': imageOf(v.image),
    'Venue Slug': v.slug,
    'Venue Status': text(v.status),
    'Venue Show Map': yes(v.show_map),
    'Venue Show Map Link': yes(v.show_map_link),
    'Venue Latitude': text(v.geo_lat),
    'Venue Longitude': text(v.geo_lng),
  };
}

export function organizerToRow(o: Organizer): Record<(typeof ORGANIZER_COLUMNS)[number], string> {
  return {
    'Organizer Name': o.organizer,
    'Organizer Description': text(o.description),
    'Organizer Email': text(o.email),
    'Organizer Website': text(o.website),
    'Organizer Phone': text(o.phone),
    'Organizer Featured Image': imageOf(o.image),
    'Organizer Slug': o.slug,
    'Organizer Status': text(o.status),
  };
}

/** Which body field each column fills, to name the column when the API refuses the field. */
export const LINKED_COLUMN_OF: Record<'venues' | 'organizers', Record<string, string>> = {
  venues: {
    venue: 'Venue Name',
    description: 'Venue Description',
    country: 'Venue Country',
    address: 'Venue Address',
    city: 'Venue City',
    state: 'Venue State/Province',
    province: 'Venue State/Province',
    zip: 'Venue Zip',
    phone: 'Venue Phone',
    website: 'Venue Website',
    image: 'Venue Featured Image',
    slug: 'Venue Slug',
    status: 'Venue Status',
    show_map: 'Venue Show Map',
    show_map_link: 'Venue Show Map Link',
    geo_lat: 'Venue Latitude',
    geo_lng: 'Venue Longitude',
  },
  organizers: {
    organizer: 'Organizer Name',
    description: 'Organizer Description',
    email: 'Organizer Email',
    website: 'Organizer Website',
    phone: 'Organizer Phone',
    image: 'Organizer Featured Image',
    slug: 'Organizer Slug',
    status: 'Organizer Status',
  },
};
