import { invalidParam } from '../../domain/errors';
import { movedTrees } from '../../domain/tallies';
import { assertMeets } from '../../domain/revisions';
import type { Taxonomy, TermRecord } from '../../domain/records';
import { slugify } from '../../domain/slugs';
import { plainText, safeHtml } from '../../domain/text';
import { seesAll } from '../../domain/visibility';
import { markStaleTrees } from '../../repositories/tallies';
import { createTerm, listTerms, type TermChanges, updateTerm } from '../../repositories/terms';
import type { Infer } from '../../schemas/infer';
import type { categoryUpdateBody } from '../../schemas/term';
import { retryStale, staleError, type Writer } from '../common';
import { byIdMap, loadTerm, termNoun } from './read';
import { type TermView, termView } from './view';

/** A category or tag body (tags have no `parent`). */
export type TermBody = Infer<typeof categoryUpdateBody>;

const now = () => new Date().toISOString();

/** The writes of one taxonomy: categories (hierarchical) and tags share all of them. */
export function termWrites(taxonomy: Taxonomy) {
  const type = termNoun(taxonomy);
  const load = (id: number) => loadTerm(taxonomy, id);

  function checkParent(parent: number | undefined, terms: Map<number, TermRecord>, self?: number): void {
    if (parent === undefined || parent === 0) return;
    if (!terms.has(parent))
      throw invalidParam('parent', `parent must be the ID of an existing ${type}.`, 'rest_unknown_parent');
    for (let p: number | undefined = parent; p; p = terms.get(p)?.parent) {
      if (p === self)
        throw invalidParam('parent', 'parent would make the category its own ancestor.', 'rest_parent_cycle');
    }
  }

  function cleanName(name: string): string {
    const clean = plainText(name);
    if (!clean) throw invalidParam('name', 'name must contain text once HTML is removed.', 'rest_too_short');
    return clean;
  }

  function cleanSlug(slug: string): string {
    const clean = slugify(slug);
    if (!clean)
      throw invalidParam('slug', 'slug must contain at least one letter or digit.', 'rest_invalid_slug');
    return clean;
  }

  const parentGone = () =>
    invalidParam('parent', `parent must be the ID of an existing ${type}.`, 'rest_unknown_parent');

  return {
    async create(body: TermBody, { user, root, creation }: Writer): Promise<TermView> {
      const name = cleanName(body.name ?? '');
      const all =
        taxonomy === 'tribe_events_cat' ? byIdMap(await listTerms(taxonomy)) : new Map<number, TermRecord>();
      // Only categories have a parent: the tags' body schema has none, so a stray `parent` is ignored.
      const parent = taxonomy === 'tribe_events_cat' ? body.parent : undefined;
      checkParent(parent, all);
      const term = await createTerm(
        {
          taxonomy,
          name,
          slugBase: body.slug !== undefined ? cleanSlug(body.slug) : slugify(name),
          description: safeHtml(body.description ?? ''),
          parent: parent ?? 0,
        },
        now(),
        parentGone,
        creation,
      );
      return termView(term, { root, seesAll: seesAll(user), byId: all });
    },

    async update(id: number, body: TermBody, sent: Set<string>, ctx: Writer): Promise<TermView> {
      return retryStale(ctx, async () => {
        const { user, root } = ctx;
        const current = await load(id);
        const changes: TermChanges = {};
        if (sent.has('name') && body.name !== undefined) changes.name = cleanName(body.name);
        if (sent.has('description') && body.description !== undefined)
          changes.description = safeHtml(body.description);
        if (sent.has('slug') && body.slug !== undefined) changes.slugBase = cleanSlug(body.slug);
        let all = new Map<number, TermRecord>();
        let staleTrees: number[] = [];
        if (taxonomy === 'tribe_events_cat') {
          all = byIdMap(await listTerms(taxonomy));
          if (sent.has('parent') && body.parent !== undefined) {
            checkParent(body.parent, all, id);
            changes.parent = body.parent;
            staleTrees = movedTrees(current.parent, body.parent, all);
          }
        }
        assertMeets(ctx.ifMatch, current, type);
        const stale = staleError(ctx, type);
        // Flagged before the update lands, so no list trusts the moved subtrees meanwhile; an update
        // refused after this leaves a flag that only costs reads until the next reindex.
        if (staleTrees.length > 0) await markStaleTrees(staleTrees, now());
        const term = await updateTerm(current, changes, now(), { stale, parentGone });
        all.set(term.id, term);
        return termView(term, { root, seesAll: seesAll(user), byId: all });
      });
    },
  };
}
