/** Inline venue / organizer objects of an event body (loaded only by the writes that send one). */
export { resolveInline } from './inline';
