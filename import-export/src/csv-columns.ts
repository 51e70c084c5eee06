import {
  CellError,
  COLUMN_OF,
  type Column,
  EVENT_COLUMNS,
  flag,
  type Row,
  rowToEvent as toEvent,
} from '../../shared/domain/csv-events';
import type { Event } from '../../client/src';
import { costToWrite } from '../../shared/domain/cost';
import type { EventBody } from './site-records';

// The columns and the row mapper are shared with POST /imports (text/csv): shared/domain/csv-events.ts.
export { CellError, COLUMN_OF, type Column, EVENT_COLUMNS, flag, type Row };

/** The event a row describes, as the typed client's body (csv-events.ts rowToEvent). */
export const rowToEvent = (row: Row) => toEvent(row) as EventBody;

const yes = (b: unknown) => (b ? '1' : '0');
const names = (list: unknown, field: string) =>
  (Array.isArray(list) ? list : list && typeof list === 'object' ? [list] : [])
    .map((x: Record<string, unknown>) => String(x[field] ?? ''))
    .join(', ');

/** An event of the API as a row of the same columns. */
export function eventToRow(e: Event): Record<Column, string> {
  const details = (e.cost_details ?? {}) as { currency_symbol?: string; currency_position?: string };
  const [startDay = '', startTime = ''] = e.start_date.split(' ');
  const [endDay = '', endTime = ''] = e.end_date.split(' ');
  return {
    'Event Name': e.title,
    'Event Description': e.description ?? '',
    'Event Excerpt': e.excerpt ?? '',
    'Event Start Date': startDay,
    'Event Start Time': e.all_day ? '' : startTime,
    'Event End Date': endDay,
    'Event End Time': e.all_day ? '' : endTime,
    Timezone: e.timezone ?? '',
    'All Day Event': yes(e.all_day),
    'Hide Event From Event Listings': yes(e.hide_from_listings),
    'Event Sticky in Month View': yes(e.sticky),
    'Event Venue Name': names(e.venue, 'venue'),
    'Event Organizer Name': names(e.organizer, 'organizer'),
    'Event Show Map Link': yes(e.show_map_link),
    'Event Show Map': yes(e.show_map),
    'Event Cost': costToWrite(String(e.cost ?? ''), details.currency_symbol),
    'Event Currency Symbol': details.currency_symbol ?? '',
    'Event Currency Position': details.currency_position ?? '',
    'Event Category': names(e.categories, 'name'),
    'Event Tags': names(e.tags, 'name'),
    'Event Website': e.website ?? '',
    'Event Featured Image':
      typeof e.image === 'string' ? e.image : ((e.image as { url?: string } | null)?.url ?? ''),
    'Event Slug': e.slug,
    'Event Status': e.status,
    'Event Featured': yes(e.featured),
  };
}
