import { idPath, list, nonEmptyText, paging, text } from './common';
import type { Infer } from './infer';

/**
 * Schemas of the tickets namespace (cal/tickets/v1, docs/tickets.md): tickets and their attendees, in
 * the field shapes of the reference's companion plugin (Event Tickets, `tribe/tickets/v1`).
 */

export const TICKET_PROVIDERS = ['rsvp', 'tickets'] as const;
const id = { type: 'integer', minimum: 1 } as const;
const ids = (what: string) => list(id, what);
const wallTime = {
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2}( \\d{2}:\\d{2}(:\\d{2})?)?$',
  description: 'Site-local wall time, `Y-m-d H:i:s` (or `Y-m-d`).',
} as const;

const ticketFields = {
  post_id: { ...id, description: 'The event the ticket is for.' },
  provider: {
    type: 'string',
    enum: TICKET_PROVIDERS,
    description: 'rsvp (going / not going) or tickets (free).',
  },
  title: nonEmptyText('The ticket’s name.', 1000),
  description: text('What the ticket gives.', 10_000),
  capacity: {
    type: 'integer',
    minimum: -1,
    maximum: 1_000_000,
    description: 'Seats; -1 (the default) is unlimited.',
  },
  cost: {
    type: 'number',
    minimum: 0,
    description: 'Only 0: payments are not offered (a ticket with a price is a 400).',
  },
  available_from: wallTime,
  available_until: wallTime,
  requires_attendee_information: { type: 'boolean' },
} as const;

export const ticketCreateBody = {
  type: 'object',
  properties: ticketFields,
  required: ['post_id', 'title'],
  additionalProperties: false,
} as const;

export const ticketUpdateBody = {
  type: 'object',
  properties: { ...ticketFields },
  additionalProperties: false,
} as const;

export const ticketsQuery = {
  type: 'object',
  properties: {
    ...paging,
    include: ids('Only these ticket IDs.'),
    exclude: ids('Not these ticket IDs.'),
    include_post: ids('Only tickets of these events.'),
    exclude_post: ids('Not tickets of these events.'),
    post_id: { ...id, description: 'Only tickets of this event (include_post with one ID).' },
    is_available: {
      type: 'boolean',
      description: 'Only tickets that can be had now (or only those that cannot).',
    },
    provider: { type: 'string', enum: TICKET_PROVIDERS },
    status: { type: 'string', enum: ['publish', 'any'], description: 'Ticket status; publish only for now.' },
    search: text('Words of the title or description.', 200),
    order: { type: 'string', enum: ['asc', 'desc'], default: 'asc' },
  },
  additionalProperties: false,
} as const;

const obj = { type: 'object' } as const;
const int = { type: 'integer' } as const;
const str = { type: 'string' } as const;

export const ticketSchema = {
  type: 'object',
  properties: {
    id: int,
    post_id: int,
    global_id: str,
    global_id_lineage: { type: 'array', items: str },
    author: str,
    status: str,
    date: str,
    date_utc: str,
    modified: str,
    modified_utc: str,
    rest_url: str,
    provider: { type: 'string', enum: TICKET_PROVIDERS },
    title: str,
    description: str,
    image: { type: ['boolean', 'object'] },
    available_from: str,
    available_from_details: { type: ['object', 'boolean'] },
    available_until: str,
    available_until_details: { type: ['object', 'boolean'] },
    capacity: int,
    capacity_details: {
      type: 'object',
      properties: { available: int, available_percentage: int, max: int, sold: int, pending: int },
    },
    is_available: { type: 'boolean' },
    cost: str,
    cost_details: obj,
    attendees: { type: 'array', items: obj, description: 'Editors and the event’s author only.' },
    supports_attendee_information: { type: 'boolean' },
    requires_attendee_information: { type: 'boolean' },
    attendee_information_fields: { type: 'array' },
    rsvp: { type: 'object', properties: { rsvp_going: int, rsvp_not_going: int } },
    checkin: {
      type: 'object',
      properties: {
        checked_in: int,
        unchecked_in: int,
        checked_in_percentage: int,
        unchecked_in_percentage: int,
      },
    },
  },
  required: [
    'id',
    'post_id',
    'provider',
    'title',
    'capacity',
    'capacity_details',
    'is_available',
    'rest_url',
  ],
} as const;

const envelope = (key: string, item: object) =>
  ({
    type: 'object',
    properties: {
      rest_url: str,
      total: int,
      total_pages: int,
      [key]: { type: 'array', items: item },
      next_rest_url: str,
      previous_rest_url: str,
    },
    required: ['rest_url', 'total', 'total_pages', key],
  }) as const;

export const ticketList = envelope('tickets', ticketSchema);

export const attendeeCreateBody = {
  type: 'object',
  properties: {
    ticket_id: { ...id, description: 'The ticket to register for.' },
    full_name: nonEmptyText('The attendee’s name.', 200),
    email: { type: 'string', format: 'email', maxLength: 254, description: 'Never shown in public answers.' },
    attendee_status: {
      type: 'string',
      enum: ['going', 'not going'],
      default: 'going',
      description: 'RSVP only: a `not going` answer takes no seat.',
    },
    waitlist: {
      type: 'boolean',
      default: false,
      description:
        'true: when no seat is left, join the waitlist (status `waitlist`) instead of a 409 sold_out; the first waiting gets the next seat freed.',
    },
  },
  required: ['ticket_id', 'full_name', 'email'],
  additionalProperties: false,
} as const;

export const attendeeUpdateBody = {
  type: 'object',
  properties: { check_in: { type: 'boolean', description: 'true checks the attendee in, false undoes it.' } },
  required: ['check_in'],
  additionalProperties: false,
} as const;

export const attendeesQuery = {
  type: 'object',
  properties: {
    ...paging,
    post_id: id,
    ticket_id: id,
    checkedin: { type: 'boolean' },
    include: ids('Only these attendee IDs.'),
    exclude: ids('Not these attendee IDs.'),
    rsvp_going_status: { type: 'string', enum: ['yes', 'no'] },
  },
  additionalProperties: false,
} as const;

export const attendeeDeleteQuery = {
  type: 'object',
  properties: {
    token: text('The secret given on registration (the attendee cancels without signing in).', 200),
  },
  additionalProperties: false,
} as const;

export const attendeeSchema = {
  type: 'object',
  properties: {
    id: int,
    post_id: int,
    ticket_id: int,
    global_id: str,
    global_id_lineage: { type: 'array', items: str },
    author: str,
    status: str,
    date: str,
    date_utc: str,
    modified: str,
    modified_utc: str,
    rest_url: str,
    provider: str,
    order: str,
    sku: str,
    title: str,
    email: { type: 'string', description: 'Editors, the event’s author and the attendee (its token) only.' },
    checked_in: { type: 'boolean' },
    checkin_details: { type: ['object', 'boolean'] },
    rsvp_going: { type: 'boolean' },
    information: obj,
    token: { type: 'string', description: 'Only in the registration’s answer: keep it to cancel.' },
    security_code: {
      type: 'string',
      description:
        'Only in the registration’s answer, for those going: the code of their confirmation, shown at the door (POST /qr).',
    },
  },
  required: ['id', 'post_id', 'ticket_id', 'provider', 'title', 'checked_in', 'rest_url'],
} as const;

export const attendeeList = envelope('attendees', attendeeSchema);

/** POST /qr: the reference's check-in by QR code; its `ticket_id` is the attendee's ID (the ticket a person holds). */
export const qrCheckInBody = {
  type: 'object',
  properties: {
    ticket_id: {
      ...id,
      description: 'The ID of the attendee to check in (the held ticket, as in the reference).',
    },
    security_code: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      description: 'The code of the attendee’s QR code or e-mail.',
    },
    event_id: { ...id, description: 'The event the code must be for (optional).' },
  },
  required: ['ticket_id', 'security_code'],
  additionalProperties: false,
} as const;

export const qrCheckInReply = {
  type: 'object',
  properties: { msg: str, attendee: attendeeSchema },
  required: ['msg', 'attendee'],
} as const;
export { idPath };

export type TicketView = Infer<typeof ticketSchema>;
export type AttendeeView = Infer<typeof attendeeSchema>;
