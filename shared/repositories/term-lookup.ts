import type { Taxonomy, TermRecord } from '../domain/records';
import { fitsKey } from '../domain/key-text';
import { keys } from '../db/keys';
import { batchGet, itemKey } from '../db/query';
import { fromTermItem, isDeletingTerm } from './terms';

/** How a term was named: by ID, by slug, or (event writes) by slug or name. */
export type TermRef = { id: number } | { slug: string; orName?: string };

/**
 * Terms named by ID, slug or name, without reading the taxonomy: IDs by key, slugs and names through
 * their guard items (which hold the term's ID), in at most two batched reads. Terms of another
 * taxonomy and terms being deleted are not found. The result holds the found refs' terms, by index.
 */
/** Guard keys hold slugs and names; one longer than any key can hold names no term. */
const fits = fitsKey;

export async function findTerms(taxonomy: Taxonomy, refs: TermRef[]): Promise<Array<TermRecord | undefined>> {
  const guardKeys = refs.flatMap((r) =>
    'id' in r
      ? []
      : [
          ...(fits(r.slug) ? [keys.slugGuard(taxonomy, r.slug)] : []),
          ...(r.orName !== undefined && fits(r.orName) ? [keys.termNameGuard(taxonomy, r.orName)] : []),
        ],
  );
  const direct = refs.flatMap((r) => ('id' in r ? [keys.term(r.id)] : []));
  const first = await batchGet([...direct, ...guardKeys]);
  const idOf = (r: TermRef): number | undefined => {
    if ('id' in r) return r.id;
    const bySlug = fits(r.slug) ? first.get(itemKey(keys.slugGuard(taxonomy, r.slug)))?.id : undefined;
    if (bySlug !== undefined) return Number(bySlug);
    const byName =
      r.orName !== undefined && fits(r.orName)
        ? first.get(itemKey(keys.termNameGuard(taxonomy, r.orName)))?.id
        : undefined;
    return byName !== undefined ? Number(byName) : undefined;
  };
  const ids = refs.map(idOf);
  const unread = ids.filter((id): id is number => id !== undefined && !first.has(itemKey(keys.term(id))));
  const second = unread.length > 0 ? await batchGet(unread.map(keys.term)) : new Map();
  return ids.map((id) => {
    if (id === undefined) return undefined;
    const item = first.get(itemKey(keys.term(id))) ?? second.get(itemKey(keys.term(id)));
    if (!item || isDeletingTerm(item) || item.taxonomy !== taxonomy) return undefined;
    return fromTermItem(item);
  });
}

/**
 * The IDs that slugs name in a taxonomy, from their guard items alone (one batched read): for a list
 * filter, which can check that the terms exist while it reads their rows.
 */
export async function termIdsOfSlugs(taxonomy: Taxonomy, slugs: string[]): Promise<Map<string, number>> {
  const named = slugs.filter(fits);
  const guards =
    named.length > 0 ? await batchGet(named.map((slug) => keys.slugGuard(taxonomy, slug))) : new Map();
  const ids = new Map<string, number>();
  for (const slug of named) {
    const id = guards.get(itemKey(keys.slugGuard(taxonomy, slug)))?.id;
    if (id !== undefined) ids.set(slug, Number(id));
  }
  return ids;
}
