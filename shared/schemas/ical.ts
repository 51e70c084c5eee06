import { eventListQuery } from './event';

/** Schemas of the iCalendar (RFC 5545) routes: GET /events/ical and GET /events/{id}/ical. */

const list = eventListQuery.properties;

/**
 * The filters of GET /events a feed takes (dates, terms, venues, organizers, featured, search, status,
 * series: the calendar page's subscribe menu offers the feed of the view it shows, one series too),
 * with the feed's own default window, and `limit` instead of paging.
 */
export const eventIcalQuery = {
  type: 'object',
  properties: {
    start_date: {
      ...list.start_date,
      description: 'Events that start on or after this date (default: 30 days ago).',
    },
    end_date: {
      ...list.end_date,
      description:
        'Events that end on or before this date (default: 365 days after now or after start_date).',
    },
    starts_before: list.starts_before,
    starts_after: list.starts_after,
    ends_before: list.ends_before,
    ends_after: list.ends_after,
    strict_dates: list.strict_dates,
    search: list.search,
    categories: list.categories,
    tags: list.tags,
    venue: list.venue,
    organizer: list.organizer,
    featured: list.featured,
    status: list.status,
    hide_from_listings: list.hide_from_listings,
    series: list.series,
    limit: {
      type: 'integer',
      minimum: 1,
      description:
        'Most events in the feed (earliest first); values above the deployment maximum (2000 by default) are capped.',
    },
  },
} as const;

/** The body of both routes: one VCALENDAR object, CRLF line ends, folded at 75 octets. */
export const icalendarText = {
  type: 'string',
  pattern: '^BEGIN:VCALENDAR\r\n',
  description: 'An iCalendar object (RFC 5545): VCALENDAR with its VTIMEZONEs and VEVENTs.',
} as const;
