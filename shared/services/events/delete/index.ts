/** Event deletes (a series' part hands over to series/). */
export { type RemovedEvent, removeEvent } from './delete';
