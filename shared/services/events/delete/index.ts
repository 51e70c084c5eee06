/** Event deletes (a series' part hands over to series/). */
export { removeEvent } from './delete';
