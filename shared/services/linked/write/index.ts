/** Venue and organizer creates and updates, from their request bodies. */
export { organizerType } from './organizer-input';
export { nextState } from './post-state';
export { venueType } from './venue-input';
export { linkedPostWrites, type InlineResult } from './write';
