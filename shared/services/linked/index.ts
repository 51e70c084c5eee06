/** Linked posts: venues and organizers, read, written, deleted and embedded in events. */
export { linkedPostDeletes } from './delete';
export { linkedPostJsonLd, linkedPostView } from './embed';
export { organizerType } from './organizer-input';
export { organizerView } from './organizer-type';
export { nextState } from './post-state';
export { type LinkedView } from './post-view';
export { linkedPostReads } from './read';
export { venueType } from './venue-input';
export { venueView } from './venue-type';
export { linkedPostWrites, type InlineResult } from './write';
