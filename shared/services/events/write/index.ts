/** Event creates, updates and deletes (a recurring one hands over to series/). */
export { removeEvent } from './delete';
export { createEvent, updateEvent, type EventBody } from './write';
