import { eventsStartingBetween } from '../../../repositories/events';
import { eventsLinkedTo, eventsLinkedToAny, existingLinks } from '../../../repositories/links';
import type { PostRecord } from '../../../domain/records';
import { getPosts } from '../../../repositories/posts';
import { eventsWithWordStart } from '../../../repositories/search-index';
import { tallyDays, treeIsStale } from '../../../repositories/tallies';
import { findTerms, termIdsOfSlugs } from '../../../repositories/term-lookup';
import { listTerms } from '../../../repositories/terms';

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

/**
 * `reads` that know some records already: getPosts reads only the others. A caller that has a record
 * in hand (an occurrence's page listing its series by the occurrence's ID) saves the round trip.
 */
export function withKnownPosts(reads: ListReads, known: PostRecord<object>[]): ListReads {
  const byId = new Map(known.map((p) => [p.id, p]));
  const getPosts = async <D extends object>(ids: number[]) => {
    const rest = ids.filter((id) => !byId.has(id));
    const out = rest.length ? await reads.getPosts<D>(rest) : new Map<number, PostRecord<D>>();
    for (const id of ids) if (byId.has(id)) out.set(id, byId.get(id) as PostRecord<D>);
    return out;
  };
  return { ...reads, getPosts };
}
