import { eventsStartingBetween } from '../repositories/events';
import { eventsLinkedTo, eventsLinkedToAny, existingLinks } from '../repositories/links';
import { getPosts } from '../repositories/posts';
import { eventsWithWordStart } from '../repositories/search-index';
import { tallyDays, treeIsStale } from '../repositories/tallies';
import { findTerms, termIdsOfSlugs } from '../repositories/term-lookup';
import { listTerms } from '../repositories/terms';

/**
 * The reads an event list makes, one per access pattern it uses: the repositories in production, and
 * in-memory fakes in the planner's unit tests (test/unit/event-list-plan.test.ts).
 */
export const repositoryReads = {
  listTerms,
  termIdsOfSlugs,
  findTerms,
  getPosts,
  tallyDays,
  treeIsStale,
  eventsLinkedTo,
  eventsLinkedToAny,
  eventsStartingBetween,
  existingLinks,
  eventsWithWordStart,
};

export type ListReads = typeof repositoryReads;
