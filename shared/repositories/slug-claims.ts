import { invalidParam } from '../domain/errors';
import type { PostType, Taxonomy } from '../domain/records';
import { nextFreeSlug } from '../domain/slugs';
import { keys } from '../db/keys';
import { type Item, queryIndex } from '../db/query';
import { lostRace, SlugTaken, type Write } from '../db/transact';

/** A slug namespace: the posts of one type or the terms of one taxonomy. */
export type SlugScope = { type: PostType } | { taxonomy: Taxonomy };

/** A slug a write needs: the first free one from `base`, or exactly `base` (a rename) or a 400. */
export interface SlugClaim {
  scope: SlugScope;
  base: string;
  exact?: boolean;
}

const partitionOf = (scope: SlugScope) =>
  'type' in scope ? keys.typePartition(scope.type) : keys.taxonomyPartition(scope.taxonomy);

const nounOf = (scope: SlugScope) =>
  'type' in scope ? scope.type : scope.taxonomy === 'tribe_events_cat' ? 'category' : 'tag';

/** Records of a slug scope whose slug starts with `base` (bySlug index, prefix of the sort key). */
export function recordsWithSlugPrefix(
  scope: SlugScope,
  base: string,
  attributes?: string[],
): AsyncGenerator<Item> {
  return queryIndex({ index: 'bySlug', partition: partitionOf(scope), sort: { prefix: base }, attributes });
}

async function takenSlugs(claim: SlugClaim): Promise<Set<string>> {
  const taken = new Set<string>();
  if (claim.exact) return taken;
  for await (const item of recordsWithSlugPrefix(claim.scope, claim.base, ['gsi1sk']))
    taken.add(String(item.gsi1sk));
  return taken;
}

/** Enough for the 100 concurrent writers of one name that a Lambda burst can bring. */
const MAX_ATTEMPTS = 200;
/** Transactions lost to concurrent ones before the write gives up (503, retryable by the client). */
const MAX_RACES = 8;
const pause = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/**
 * Commits `build(slugs)` with a free slug for every claim (`slugs[i]` for `claims[i]`). The slug
 * guards in the transaction are what make slugs unique; the index read only picks likely-free
 * candidates. A claim that lost its slug to a concurrent writer moves on to the next one (re-reading
 * the index, and counting the lost one as taken even where the index lags), so any number of
 * concurrent writers of one name get dense suffixes; a transaction that lost a race retries after a
 * short random pause. An exact claim (a rename) that is taken is a 400 naming `slug`.
 */
export async function commitWithSlugs(
  claims: SlugClaim[],
  build: (slugs: string[]) => Write[],
  commitFn: (writes: Write[]) => Promise<void>,
): Promise<string[]> {
  const taken = await Promise.all(claims.map(takenSlugs));
  const pick = (i: number) => (claims[i]!.exact ? claims[i]!.base : nextFreeSlug(claims[i]!.base, taken[i]!));
  let races = 0;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const slugs = claims.map((_, i) => pick(i));
    try {
      await commitFn(build(slugs));
      return slugs;
    } catch (e) {
      if (e instanceof SlugTaken) {
        const claim = claims[e.claim]!;
        if (claim.exact)
          throw invalidParam(
            'slug',
            `slug "${claim.base}" is already used by another ${nounOf(claim.scope)}.`,
            'rest_slug_taken',
          );
        const fresh = await takenSlugs(claim);
        taken[e.claim] = new Set([...taken[e.claim]!, ...fresh, slugs[e.claim]!]);
        continue;
      }
      if (lostRace(e) && ++races <= MAX_RACES) {
        await pause(5 + Math.random() * 20 * races);
        continue;
      }
      throw e;
    }
  }
  throw new Error(`could not find free slugs for ${claims.map((c) => `"${c.base}"`).join(', ')}`);
}
