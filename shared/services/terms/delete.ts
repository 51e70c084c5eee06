import { notFound } from '../../domain/errors';
import { assertMeets } from '../../domain/revisions';
import type { Taxonomy } from '../../domain/records';
import { movedTrees } from '../../domain/tallies';
import { seesAll } from '../../domain/visibility';
import { finishDelete, markDeleting } from '../../repositories/deletes';
import { getTerm, getTermBeingDeleted, listTerms } from '../../repositories/terms';
import { retryStale, staleError, type Writer } from '../common';
import { byIdMap, termNoun } from './read';
import { type TermView, termView } from './view';

const now = () => new Date().toISOString();

/**
 * The permanent delete of a category or tag, apart from the other term writes so that the delete
 * functions carry no body handling and no HTML sanitizer.
 */
export function termDeletes(taxonomy: Taxonomy) {
  const type = termNoun(taxonomy);
  return {
    /**
     * Deletes the term for good, whatever the number of events that carry it (repositories/deletes.ts);
     * a delete that was interrupted is finished by the same request again.
     */
    async remove(id: number, ctx: Writer): Promise<TermView> {
      return retryStale(ctx, async () => {
        const { user, root } = ctx;
        let term = await getTerm(id);
        const resumed = !term;
        term ??= await getTermBeingDeleted(id);
        if (!term || term.taxonomy !== taxonomy) throw notFound(type, id);
        const all = taxonomy === 'tribe_events_cat' ? await listTerms(taxonomy) : [];
        const view = termView(term, { root, seesAll: seesAll(user), byId: byIdMap([...all, term]) });
        // Its ancestors' subtree tallies count the events it will lose: flagged with the tombstone.
        const byId = byIdMap(all);
        const staleTrees =
          taxonomy === 'tribe_events_cat'
            ? movedTrees(term.parent, 0, byId).filter((c) => c !== term.id)
            : [];
        const target = {
          kind: 'TERM' as const,
          record: term,
          children: () => listTerms(taxonomy),
          staleTrees,
        };
        const at = now();
        if (!resumed) {
          assertMeets(ctx.ifMatch, term, type);
          await markDeleting(target, at, staleError(ctx, type));
        }
        await finishDelete(target, at);
        return view;
      });
    },
  };
}
