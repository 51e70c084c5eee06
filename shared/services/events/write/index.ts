/** Event creates and updates (a recurring one hands over to series/). */
export { createEvent, updateEvent, type EventBody } from './write';
