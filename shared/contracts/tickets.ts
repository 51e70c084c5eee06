import { TICKETS_NAMESPACE } from '../config';
import {
  attendeeCreateBody,
  attendeeCsvText,
  attendeeDeleteQuery,
  attendeeList,
  attendeeSchema,
  attendeesQuery,
  attendeeUpdateBody,
  idPath,
  ticketCreateBody,
  ticketList,
  ticketSchema,
  ticketsQuery,
  ticketUpdateBody,
  qrCheckInBody,
  qrCheckInReply,
} from '../schemas/tickets';
import { errors, READ_ERRORS, WRITE_ERRORS } from './responses';
import { systemOps } from './system';
import type { Operation } from './types';

/** Tickets and RSVP (docs/tickets.md): namespace cal/tickets/v1, after the reference's tribe/tickets/v1. */
const dir = 'functions/tickets';
const namespace = TICKETS_NAMESPACE;

export const ticketSystemOps = {
  index: {
    ...systemOps.index,
    operationId: 'getTicketsNamespaceIndex',
    namespace,
    handler: `${dir}/get-index`,
    summary: 'Describe the tickets namespace: every route, its methods and arguments',
    query: {
      type: 'object',
      properties: {
        namespace: { type: 'string', default: namespace, description: 'The namespace to describe.' },
        context: systemOps.index.query.properties.context,
      },
    },
  },
} as const satisfies Record<string, Operation>;

export const ticketOps = {
  list: {
    operationId: 'listTickets',
    namespace,
    methods: ['GET'],
    path: '/tickets',
    handler: `${dir}/list-tickets`,
    summary: 'List tickets of published events (all events for editors)',
    access: 'public',
    readOnly: true,
    query: ticketsQuery,
    responses: { 200: { description: 'A page of tickets.', schema: ticketList }, ...errors(...READ_ERRORS) },
  },
  create: {
    operationId: 'createTicket',
    namespace,
    methods: ['POST'],
    path: '/tickets',
    handler: `${dir}/create-ticket`,
    summary: 'Create a free ticket or an RSVP for an event (a price is a 400: payments are not offered)',
    access: 'editor',
    readOnly: false,
    body: ticketCreateBody,
    responses: {
      201: { description: 'The new ticket.', schema: ticketSchema },
      ...errors(...WRITE_ERRORS, 404),
    },
  },
  get: {
    operationId: 'getTicket',
    namespace,
    methods: ['GET'],
    path: '/tickets/{id}',
    handler: `${dir}/get-ticket`,
    summary: 'Read a ticket, with its attendees for editors and the event’s author',
    access: 'public',
    readOnly: true,
    pathParams: idPath,
    responses: { 200: { description: 'The ticket.', schema: ticketSchema }, ...errors(...READ_ERRORS, 404) },
  },
  update: {
    operationId: 'updateTicket',
    namespace,
    methods: ['PUT', 'POST', 'PATCH'],
    path: '/tickets/{id}',
    handler: `${dir}/update-ticket`,
    summary: 'Change a ticket (partial); capacity cannot go below the seats taken',
    access: 'editor',
    readOnly: false,
    pathParams: idPath,
    body: ticketUpdateBody,
    responses: {
      200: { description: 'The changed ticket.', schema: ticketSchema },
      ...errors(...WRITE_ERRORS, 404, 409),
    },
  },
  delete: {
    operationId: 'deleteTicket',
    namespace,
    methods: ['DELETE'],
    path: '/tickets/{id}',
    handler: `${dir}/delete-ticket`,
    summary: 'Delete a ticket that has no attendees',
    access: 'editor',
    readOnly: false,
    pathParams: idPath,
    responses: {
      200: { description: 'The deleted ticket.', schema: ticketSchema },
      ...errors(...WRITE_ERRORS, 404, 409),
    },
  },
} as const satisfies Record<string, Operation>;

export const attendeeOps = {
  list: {
    operationId: 'listAttendees',
    namespace,
    methods: ['GET'],
    path: '/attendees',
    handler: `${dir}/list-attendees`,
    summary:
      'List attendees (a page of JSON, or all of them as text/csv): editors, or the event’s author with post_id or ticket_id',
    access: 'contributor',
    readOnly: true,
    query: attendeesQuery,
    responses: {
      200: {
        description:
          'A page of attendees; with format=csv (or Accept: text/csv) every matching attendee as a CSV file with a header row.',
        schema: attendeeList,
        alternatives: { 'text/csv': attendeeCsvText },
      },
      ...errors(...READ_ERRORS, 403),
    },
  },
  create: {
    operationId: 'createAttendee',
    namespace,
    methods: ['POST'],
    path: '/attendees',
    handler: `${dir}/create-attendee`,
    summary:
      'Register for an available ticket of a published event (anyone); 409 sold_out when full, 429 past the rate limits of anonymous registrations',
    access: 'public',
    readOnly: false,
    body: attendeeCreateBody,
    responses: {
      201: { description: 'The attendee, with its secret token (shown only here).', schema: attendeeSchema },
      ...errors(...WRITE_ERRORS, 404, 409, 429),
    },
  },
  get: {
    operationId: 'getAttendee',
    namespace,
    methods: ['GET'],
    path: '/attendees/{id}',
    handler: `${dir}/get-attendee`,
    summary: 'Read an attendee: editors and the event’s author',
    access: 'contributor',
    readOnly: true,
    pathParams: idPath,
    responses: {
      200: { description: 'The attendee.', schema: attendeeSchema },
      ...errors(...READ_ERRORS, 403, 404),
    },
  },
  update: {
    operationId: 'updateAttendee',
    namespace,
    methods: ['PUT', 'POST', 'PATCH'],
    path: '/attendees/{id}',
    handler: `${dir}/update-attendee`,
    summary: 'Check an attendee in (check_in: true) or undo it: editors and the event’s author',
    access: 'contributor',
    readOnly: false,
    pathParams: idPath,
    body: attendeeUpdateBody,
    responses: {
      200: { description: 'The attendee.', schema: attendeeSchema },
      ...errors(...WRITE_ERRORS, 404, 409),
    },
  },
  delete: {
    operationId: 'deleteAttendee',
    namespace,
    methods: ['DELETE'],
    path: '/attendees/{id}',
    handler: `${dir}/delete-attendee`,
    summary: 'Cancel a registration and free its seat (editors, or anyone with the attendee’s token)',
    access: 'public',
    readOnly: false,
    pathParams: idPath,
    query: attendeeDeleteQuery,
    responses: {
      200: { description: 'The cancelled attendee.', schema: attendeeSchema },
      ...errors(...WRITE_ERRORS, 404, 409, 410),
    },
  },
  qrCheckIn: {
    operationId: 'checkInByQr',
    namespace,
    methods: ['POST'],
    path: '/qr',
    handler: `${dir}/check-in-qr`,
    summary: 'Check an attendee in by the security code of their QR code: editors and the event’s author',
    access: 'contributor',
    readOnly: false,
    body: qrCheckInBody,
    responses: {
      201: { description: 'Checked in: the attendee.', schema: qrCheckInReply },
      ...errors(...WRITE_ERRORS, 404),
    },
  },
} as const satisfies Record<string, Operation>;
