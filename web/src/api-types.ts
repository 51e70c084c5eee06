import type {
  Args,
  Category,
  Event,
  Organizer as OrganizerRecord,
  Schemas,
  Venue as VenueRecord,
} from '../../client/src';

/** The page's API root: the public API on the same origin (api.ts calls it). */
export const API_ROOT = '/cal/events/v1';
/** The tickets namespace's root on the same origin (the client swaps it in for its operations). */
export const TICKETS_ROOT = '/cal/tickets/v1';

export type CalEvent = Event;
/** A category or a tag, as far as the page reads them. */
export type Term = Pick<Category, 'id' | 'name' | 'slug' | 'parent'>;
/**
 * A venue or an organizer embedded in an event. The contract promises only its `id` there, so the page
 * reads the rest as optional.
 */
export type Venue = Pick<VenueRecord, 'id'> & Partial<VenueRecord>;
export type Organizer = Pick<OrganizerRecord, 'id'> & Partial<OrganizerRecord>;
export type EventQuery = NonNullable<Args<'listEvents'>['query']>;

export const venuesOf = (e: CalEvent): Venue[] => [e.venue].flat();
export const organizersOf = (e: CalEvent): Organizer[] => e.organizer;

/** A ticket (or RSVP) of an event, and a registration for one (docs/tickets.md). */
export type Ticket = Schemas['Ticket'];
export type Attendee = Schemas['Attendee'];
