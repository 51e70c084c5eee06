/** Categories and tags: read, written, deleted, and their view embedded in events. */
export { termDeletes } from './delete';
export { termReads } from './read';
export { archiveUrl, embeddedTermView, type TermPath } from './view';
export { termWrites } from './write';
