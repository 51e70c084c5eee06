import type { PostType, Taxonomy } from '../domain/records';
import { nextFreeSlug } from '../domain/slugs';
import { keys } from '../db/keys';
import { type Item, queryIndex } from '../db/query';
import { commit, SlugTaken, type Write } from '../db/transact';

/** A slug namespace: the posts of one type or the terms of one taxonomy. */
export type SlugScope = { type: PostType } | { taxonomy: Taxonomy };

const partitionOf = (scope: SlugScope) =>
  'type' in scope ? keys.typePartition(scope.type) : keys.taxonomyPartition(scope.taxonomy);

/** Records of a slug scope whose slug starts with `base` (bySlug index, prefix of the sort key). */
export function recordsWithSlugPrefix(
  scope: SlugScope,
  base: string,
  attributes?: string[],
): AsyncGenerator<Item> {
  return queryIndex({ index: 'bySlug', partition: partitionOf(scope), sort: { prefix: base }, attributes });
}

/**
 * Commits `build(slug)` with the first free slug. The slug guard in the transaction is what makes the
 * slug unique; the index read only picks a likely-free candidate, and a lost race moves on to the next.
 */
export async function commitWithUniqueSlug(
  scope: SlugScope,
  base: string,
  build: (slug: string) => Write[],
): Promise<string> {
  const taken = new Set<string>();
  for await (const item of recordsWithSlugPrefix(scope, base, ['gsi1sk'])) taken.add(String(item.gsi1sk));
  for (let attempt = 0; attempt < 20; attempt++) {
    const slug = nextFreeSlug(base, taken);
    try {
      await commit(build(slug));
      return slug;
    } catch (e) {
      if (!(e instanceof SlugTaken)) throw e;
      taken.add(slug);
    }
  }
  throw new Error(`could not find a free slug for "${base}"`);
}
