/** Events: one event read and presented (the view every other capability shows), write helpers. */
export { getEvent, loadEvent, readableEvent } from './read';
export { presentEvent, presentEvents, type EventView } from './view';
export { linkedGone, parentsFor } from './write-parts';
