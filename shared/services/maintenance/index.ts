/** Jobs over the whole table: index rebuilds, tallies, scheduled publication. */
export { rebuildFeaturedIndex } from './featured-reindex';
export { publishDue, type PublishRun } from './scheduled';
export { rebuildSearchIndex } from './search-reindex';
export { rebuildTallies } from './tally-rebuild';
export { rebuildTermIndex } from './term-reindex';
export { rebuildTicketedEvents } from './ticketed-reindex';
