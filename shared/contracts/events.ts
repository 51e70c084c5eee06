import { idPath } from '../schemas/common';
import {
  eventCreateBody,
  eventDeleteQuery,
  eventListQuery,
  eventDeletedSchema,
  eventSchema,
  eventUpdateBody,
  eventUpdateQuery,
} from '../schemas/event';
import { eventIcalQuery, icalendarText } from '../schemas/ical';
import { postOperations } from './posts';
import { CALENDAR_HEADERS, CALENDAR_OPTIONAL_HEADERS, errors, notModified, READ_ERRORS } from './responses';
import type { Operation } from './types';

const calendar = (description: string) =>
  ({
    description,
    schema: icalendarText,
    contentType: 'text/calendar',
    headers: CALENDAR_HEADERS,
    optionalHeaders: CALENDAR_OPTIONAL_HEADERS,
  }) as const;

const posts = postOperations({
  collection: 'events',
  one: 'event',
  item: eventSchema,
  listQuery: eventListQuery,
  createBody: eventCreateBody,
  updateBody: eventUpdateBody,
  updateBySlugBody: eventUpdateBody,
});

/** A series write that answers before its occurrences are all written (issue 38, docs/recurrence.md). */
const seriesAccepted = {
  202: {
    description:
      'A series write answered before all its occurrences are written: the occurrence written; the ' +
      'finisher writes the rest within seconds (GET /events?series= shows the series whole once ' +
      'X-Cal-Series-Pending there is 0).',
    schema: eventSchema,
    headers: {
      Location: 'The rest_url of the occurrence written.',
      'X-Cal-Series-Written': 'How many of the series’ occurrences are written.',
      'X-Cal-Series-Pending': 'How many are still to be written (or removed).',
    },
  },
} as const;

/** `GET /events?series=`: whether the series is still being written (issue 38, docs/recurrence.md). */
const seriesListed = {
  200: {
    ...posts.list.responses[200],
    optionalHeaders: {
      'X-Cal-Series-Pending':
        'With series: how many of the series’ occurrences are still to be written (or removed) by a write ' +
        'that answered 202, at most; 0 once the series is whole.',
    },
  },
} as const;

export const eventOps = {
  ...posts,
  list: { ...posts.list, responses: { ...posts.list.responses, ...seriesListed } },
  create: { ...posts.create, responses: { ...posts.create.responses, ...seriesAccepted } },
  // Writes of an occurrence take the scope of a series (docs/recurrence.md).
  update: {
    ...posts.update,
    query: eventUpdateQuery,
    responses: { ...posts.update.responses, ...seriesAccepted },
  },
  // A delete's 200 has `attendees_deleted`: a permanent delete takes the event's attendees along.
  delete: {
    ...posts.delete,
    query: eventDeleteQuery,
    responses: {
      ...posts.delete.responses,
      200: { ...posts.delete.responses[200], schema: eventDeletedSchema },
    },
  },
  updateBySlug: {
    ...posts.updateBySlug,
    query: eventUpdateQuery,
    responses: { ...posts.updateBySlug.responses, ...seriesAccepted },
  },
  deleteBySlug: {
    ...posts.deleteBySlug,
    query: eventDeleteQuery,
    responses: {
      ...posts.deleteBySlug.responses,
      200: { ...posts.deleteBySlug.responses[200], schema: eventDeletedSchema },
    },
  },
  /** The subscription feed: every matching event of a window, as text/calendar. */
  ical: {
    operationId: 'getEventsIcal',
    methods: ['GET'],
    path: '/events/ical',
    handler: 'functions/events/get-events-ical',
    summary: 'Calendar feed (iCalendar) of the events matching the filters of GET /events',
    access: 'public',
    readOnly: true,
    query: eventIcalQuery,
    responses: {
      200: calendar('Every matching event in the window (30 days ago to 365 days ahead by default).'),
      ...notModified(),
      ...errors(...READ_ERRORS),
    },
  },
  /** One event as text/calendar ("add to calendar"), visible as GET /events/{id} is. */
  icalOne: {
    operationId: 'getEventIcal',
    methods: ['GET'],
    path: '/events/{id}/ical',
    handler: 'functions/events/get-event-ical',
    summary: 'One event as an iCalendar object',
    access: 'public',
    readOnly: true,
    pathParams: idPath,
    responses: {
      200: calendar('The event as a VCALENDAR with one VEVENT.'),
      ...notModified(),
      ...errors(...READ_ERRORS, 403, 404),
    },
  },
} as const satisfies Record<string, Operation>;
