import { rebuildTermOrder, type TermOrderReport } from '../../repositories/term-order';

/** Rebuilds the name order and totals of both taxonomies (`npm run reindex`; see rebuildTermOrder). */
export async function rebuildTermIndex(): Promise<TermOrderReport> {
  const cats = await rebuildTermOrder('tribe_events_cat');
  const tags = await rebuildTermOrder('post_tag');
  return { terms: cats.terms + tags.terms, updated: cats.updated + tags.updated };
}
