import { MAX_LINKED_RECORDS } from '../domain/event-record';
import { STATUSES } from '../domain/statuses';
import { DATE_FORMS_TEXT } from '../domain/date-forms';

const LINK_LIMIT = `An event links at most ${MAX_LINKED_RECORDS} records in all (categories, tags, venues and organizers together).`;
import { LIMITS, list, nonEmptyText, paging, postHeadFields, text } from './common';
import { embeddedTermSchema } from './term';

const dateInput = (description: string) =>
  ({ type: ['string', 'integer'], minLength: 1, maxLength: 100, description }) as const;

const bool = (description: string) => ({ type: 'boolean', description }) as const;

/** A linked venue or organizer: an ID, `{id}`, or an inline object that creates (or reuses) one. */
const linkRef = (name: 'venue' | 'organizer') =>
  ({
    description:
      `${name === 'venue' ? 'Venue' : 'Organizer'} IDs (number, CSV, array), {"id": N} objects, or inline objects ` +
      `with a "${name}" name that create the record; "" or null links none. ${LINK_LIMIT}`,
    anyOf: [
      { type: 'integer', minimum: 1 },
      { type: 'string', maxLength: LIMITS.string },
      { type: 'object' },
      {
        type: 'array',
        maxItems: LIMITS.arrayItems,
        items: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'string' }, { type: 'object' }] },
      },
      { type: 'null' },
    ],
  }) as const;

const termRefs = (what: string) =>
  ({
    type: ['array', 'null'],
    maxItems: LIMITS.arrayItems,
    items: { type: ['integer', 'string'], minLength: 1, maxLength: LIMITS.name },
    description: `${what} by ID, slug or name (CSV allowed); an unknown name creates the term for editors; "" or [] links none. ${LINK_LIMIT}`,
  }) as const;

const eventFields = {
  title: nonEmptyText('The event title (plain text).', LIMITS.name),
  start_date: dateInput(
    `Start: ${DATE_FORMS_TEXT}, in the event time zone; an impossible day (2027-02-30) is a 400.`,
  ),
  end_date: dateInput('End, in the same formats; must not be before the start.'),
  author: {
    type: ['string', 'integer'],
    minLength: 1,
    maxLength: 200,
    description: 'Author user (editors only).',
  },
  date: text(
    'Publication date, in the site time zone, in the forms of start_date; a date to come schedules the event (status future until then).',
    100,
  ),
  date_utc: text('Publication date in UTC, in the forms of start_date.', 100),
  description: {
    type: ['string', 'null'],
    maxLength: LIMITS.description,
    description:
      'Description (safe HTML); null or "" clears it. From editors and administrators it may hold video and map embeds: <iframe> from YouTube, Vimeo or Google Maps (decisions §9).',
  },
  slug: text(
    "Slug; generated from the title when absent or empty. WordPress's rule (decisions §9): accents removed, lower case, other letters as percent-encoded UTF-8, cut to 200 characters.",
  ),
  excerpt: {
    type: ['string', 'null'],
    maxLength: LIMITS.excerpt,
    description: 'Excerpt (safe HTML); null or "" clears it.',
  },
  status: { type: 'string', enum: STATUSES, description: 'Post status.' },
  timezone: {
    type: ['string', 'null'],
    maxLength: 64,
    description: 'IANA time zone name or UTC±N; default (and null or "") the site time zone.',
  },
  all_day: bool('The event lasts whole days.'),
  image: {
    type: ['string', 'integer', 'null'],
    maxLength: LIMITS.string,
    description: 'Featured image URL (http or https).',
  },
  cost: {
    description:
      'Cost: a string such as "$10 - $25", "£8.50", "15 €" or "Free", a number, or an array of them; a currency written before or after the amounts is kept as currency_symbol and currency_position.',
    anyOf: [
      { type: 'string', maxLength: LIMITS.string },
      { type: 'number' },
      { type: 'array', maxItems: LIMITS.arrayItems, items: { type: ['string', 'number'], maxLength: 200 } },
      { type: 'null' },
    ],
  },
  website: {
    type: ['string', 'null'],
    maxLength: LIMITS.string,
    description: 'Event website (http or https URL).',
  },
  show_map: bool('Show a map.'),
  show_map_link: bool('Show a map link.'),
  hide_from_listings: bool('Hide from event lists.'),
  sticky: bool('Sticky in the calendar view.'),
  featured: bool('Featured event.'),
  categories: termRefs('Event categories'),
  tags: termRefs('Event tags'),
  venue: linkRef('venue'),
  organizer: linkRef('organizer'),
  recurrence: {
    type: 'array',
    minItems: 1,
    maxItems: 100,
    items: { type: 'string', minLength: 1, maxLength: 2000 },
    description:
      'Makes the event a series (create, or update of a single event without scope or with scope=all) or changes ' +
      'its rule (update of an occurrence, scope=all or following): RFC 5545 lines ' +
      '(RRULE, RDATE, EXDATE) read in the event time zone, e.g. ["RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20270630"]. ' +
      'See docs/recurrence.md.',
  },
} as const;

export const eventCreateBody = {
  type: 'object',
  properties: eventFields,
  required: ['title', 'start_date', 'end_date'],
} as const;

export const eventUpdateBody = { type: 'object', properties: eventFields } as const;

const ids = (description: string) => list({ type: 'integer', minimum: 1 }, description);
const termFilter = (description: string) =>
  list({ type: ['integer', 'string'], minLength: 1, maxLength: 200 }, description);

export const eventListQuery = {
  type: 'object',
  properties: {
    ...paging,
    start_date: dateInput(
      `Events that start on or after this date (default: the beginning of yesterday); ${DATE_FORMS_TEXT}.`,
    ),
    end_date: dateInput(
      'Events that end on or before this date (default: the end of the day 24 months from now).',
    ),
    starts_before: dateInput('Events that start before this date.'),
    starts_after: dateInput('Events that start after this date.'),
    ends_before: dateInput('Events that end before this date.'),
    ends_after: dateInput('Events that end after this date.'),
    strict_dates: {
      type: 'boolean',
      default: false,
      description: 'Use the given times exactly instead of whole days.',
    },
    search: nonEmptyText(
      'Events where every word starts a word of the title, excerpt or description (case and accents ignored).',
      200,
    ),
    categories: termFilter('Events in any of these categories (ID or slug), child categories included.'),
    tags: termFilter('Events with any of these tags (ID or slug).'),
    venue: ids('Events at any of these venues.'),
    organizer: ids('Events by any of these organizers.'),
    featured: bool('Only featured (true) or only not featured (false) events.'),
    hide_from_listings: bool(
      'true: only the events hidden from listings, which no list shows otherwise (editing roles only; an export reads them so). Absent or false: the listed events.',
    ),
    status: list(
      { type: 'string', enum: STATUSES },
      'Post statuses to list (editing roles only, besides publish).',
    ),
    geoloc: bool('Only events whose venue has (true) or lacks (false) coordinates.'),
    geoloc_lat: {
      type: 'number',
      minimum: -90,
      maximum: 90,
      description: 'Latitude of the search point (with geoloc_lng).',
    },
    geoloc_lng: {
      type: 'number',
      minimum: -180,
      maximum: 180,
      description: 'Longitude of the search point (with geoloc_lat).',
    },
    geoloc_radius: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 20_000,
      default: 25,
      description: 'Search radius in km.',
    },
    include: ids('Only these event IDs; date filters are then ignored.'),
    post_parent: { type: 'integer', minimum: 1, description: 'Events whose parent is this event.' },
    series: {
      type: 'integer',
      minimum: 1,
      description: 'Only the occurrences of the series this event belongs to (any occurrence ID names it).',
    },
    ticketed: bool(
      'true: only events with at least one ticket or RSVP (cal/tickets/v1); false: only events without one.',
    ),
  },
} as const;

const dateDetails = {
  type: 'object',
  properties: Object.fromEntries(
    ['year', 'month', 'day', 'hour', 'minutes', 'seconds'].map((k) => [k, { type: 'string' }]),
  ),
  required: ['year', 'month', 'day', 'hour', 'minutes', 'seconds'],
} as const;

const image = {
  anyOf: [
    {
      type: 'object',
      properties: { url: { type: 'string' }, id: { type: 'null' }, extension: { type: 'string' } },
      required: ['url', 'id', 'extension'],
    },
    { const: false },
  ],
} as const;

const str = { type: 'string' } as const;
const boolOut = { type: 'boolean' } as const;
const linked = { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } as const;

/** An event as every event route returns it (reference §3.1); `json_ld` only on single GETs. */
export const eventSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    global_id: str,
    global_id_lineage: { type: 'array', items: str },
    ...postHeadFields,
    rest_url: str,
    title: str,
    description: str,
    excerpt: str,
    slug: str,
    image,
    all_day: boolOut,
    start_date: str,
    start_date_details: dateDetails,
    end_date: str,
    end_date_details: dateDetails,
    utc_start_date: str,
    utc_start_date_details: dateDetails,
    utc_end_date: str,
    utc_end_date_details: dateDetails,
    timezone: str,
    timezone_abbr: str,
    cost: str,
    cost_details: {
      type: 'object',
      properties: {
        currency_symbol: str,
        currency_code: str,
        currency_position: str,
        values: { type: 'array', items: str },
      },
      required: ['currency_symbol', 'currency_code', 'currency_position', 'values'],
    },
    website: str,
    show_map: boolOut,
    show_map_link: boolOut,
    hide_from_listings: boolOut,
    sticky: boolOut,
    featured: boolOut,
    categories: { type: 'array', items: embeddedTermSchema },
    tags: { type: 'array', items: embeddedTermSchema },
    venue: { anyOf: [linked, { type: 'array', items: linked }] },
    organizer: { type: 'array', items: linked },
    series_id: {
      type: ['integer', 'null'],
      description: "The series' ID (its first occurrence's); null for a single event.",
    },
    recurrence: {
      anyOf: [{ type: 'array', items: str }, { type: 'null' }],
      description: "The series' RFC 5545 lines; null for a single event.",
    },
    recurrence_text: {
      type: ['string', 'null'],
      description: 'The rule in English; null for a single event.',
    },
    occurrence_start: {
      type: ['string', 'null'],
      description: 'Where the rule placed this occurrence (event-local Y-m-d H:i:s), kept when it is moved.',
    },
    is_exception: { type: 'boolean', description: 'This occurrence was edited or moved on its own.' },
    json_ld: { type: 'object' },
  },
  required: [
    'id',
    'global_id',
    'author',
    'status',
    'url',
    'rest_url',
    'title',
    'slug',
    'start_date',
    'end_date',
    'venue',
    'organizer',
  ],
  additionalProperties: false,
} as const;

/**
 * The answer of DELETE /events/{id} (and by slug): the event as it was, and with `force=true` how many
 * of its attendees the permanent delete removed with it (docs/tickets.md), beside the reference's shape.
 */
export const eventDeletedSchema = {
  ...eventSchema,
  properties: {
    ...eventSchema.properties,
    attendees_deleted: {
      type: 'integer',
      minimum: 0,
      description:
        'force=true only: the attendees (going, not going, waiting) removed with the event, its tickets and their mails.',
    },
  },
} as const;

/** What a write of one occurrence of a series changes (docs/recurrence.md); a single event takes none. */
const scope = {
  type: 'string',
  enum: ['this', 'following', 'all'],
  description:
    'For an occurrence of a series: this occurrence (default), this and the following ones (splits the series), or all of them.',
} as const;

export const eventUpdateQuery = { type: 'object', properties: { scope } } as const;

export const eventDeleteQuery = {
  type: 'object',
  properties: {
    force: {
      type: 'boolean',
      default: false,
      description: 'Delete permanently instead of moving to the trash (editors).',
    },
    scope,
  },
} as const;
