import { config } from '../../config';
import { pagePath } from '../../domain/page-paths';
import type { Taxonomy, TermRecord } from '../../domain/records';
import { withRevision } from '../../domain/revisions';

export const COLLECTION: Record<Taxonomy, 'categories' | 'tags'> = {
  tribe_events_cat: 'categories',
  post_tag: 'tags',
};

/** The count a caller sees: editors count every non-draft event, everyone else published ones only. */
export const visibleCount = (t: TermRecord, seesAll: boolean) => (seesAll ? t.countAll : t.countPublic);

/** What a term's archive address is made of. */
export type TermPath = Pick<TermRecord, 'id' | 'taxonomy' | 'slug' | 'parent'>;

/** Public archive page: categories nest their ancestors' slugs, as WordPress permalinks do. */
export function archiveUrl(t: TermPath, byId: Map<number, TermPath>): string {
  if (t.taxonomy === 'post_tag') return `${config.siteUrl}${pagePath('tag', t.slug)}`;
  const path = [t.slug];
  const seen = new Set([t.id]);
  for (let p = byId.get(t.parent); p && !seen.has(p.id); p = byId.get(p.parent)) {
    path.unshift(p.slug);
    seen.add(p.id);
  }
  return `${config.siteUrl}${pagePath('category', ...path)}`;
}

export function termUrls(t: TermRecord, root: string) {
  const collection = `${root}/${COLLECTION[t.taxonomy]}`;
  return {
    self: `${collection}/${t.id}`,
    collection,
    ...(t.parent > 0 ? { up: `${collection}/${t.parent}` } : {}),
  };
}

/** A category or tag as the term routes show it. */
export type TermView = ReturnType<typeof termView>;

/** Shape (b)/(c) of reference §3.4: term lists, single reads and writes. */
export function termView(
  t: TermRecord,
  o: { root: string; seesAll: boolean; byId: Map<number, TermRecord> },
) {
  return withRevision(
    {
      id: t.id,
      count: visibleCount(t, o.seesAll),
      description: t.description,
      name: t.name,
      slug: t.slug,
      taxonomy: t.taxonomy,
      ...(t.taxonomy === 'tribe_events_cat' ? { parent: t.parent } : {}),
      meta: [],
      url: archiveUrl(t, o.byId),
      urls: termUrls(t, o.root),
    },
    t,
  );
}

/** Shape (a) of reference §3.4: a term embedded in an event. */
export function embeddedTermView(t: TermRecord, o: { root: string; seesAll: boolean }) {
  return {
    name: t.name,
    slug: t.slug,
    term_group: 0,
    term_taxonomy_id: t.id,
    taxonomy: t.taxonomy,
    description: t.description,
    parent: t.parent,
    count: visibleCount(t, o.seesAll),
    filter: 'raw',
    id: t.id,
    urls: termUrls(t, o.root),
  };
}
