/** Linked posts (venues, organizers): read, deleted, and embedded in events. */
export { linkedPostDeletes } from './delete';
export { linkedPostJsonLd, linkedPostView } from './embed';
export { organizerView, type OrganizerBody, type OrganizerData } from './organizer-type';
export { compact, nextOptional, type Body, type LinkedData, type LinkedPostType } from './post-type';
export { linkedView, type LinkedView } from './post-view';
export { linkedPostReads, loadLinked } from './read';
export { TEXT, venueView, type VenueBody, type VenueData } from './venue-type';
