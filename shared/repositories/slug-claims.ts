import { invalidParam } from '../domain/errors';
import type { PostType, Taxonomy } from '../domain/records';
import { nextFreeSlug } from '../domain/slugs';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from '../db/client';
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

/**
 * The slugs each claim's base already names (its own and its `-N`s), read by commitWithSlugs; a
 * caller that knows the claims early may read them itself (alongside other reads) and pass them on.
 */
export const slugsTaken = (claims: SlugClaim[]) => Promise.all(claims.map(takenSlugs));

/** Enough for the 100 concurrent writers of one name that a Lambda burst can bring. */
const MAX_ATTEMPTS = 200;

const nameOf = (scope: SlugScope) => ('type' in scope ? scope.type : scope.taxonomy);

/**
 * The next `-N` of a slug base, from its counter (started above the highest suffix seen taken). The
 * counter moves only when a claim is lost, while uncontended creates take the lowest free `-N`: a base
 * that grew since its counter started has it behind the suffixes in use, and counting up through them
 * would cost a transaction each (a 500 once MAX_ATTEMPTS ran out). Such a counter is moved past the
 * highest suffix seen, once, unless a concurrent writer already moved it.
 */
async function nextSuffix(claim: SlugClaim, taken: Set<string>): Promise<number> {
  const suffixes = [...taken].map((s) =>
    s === claim.base ? 1 : Number(s.slice(claim.base.length + 1)) || 1,
  );
  const floor = Math.max(1, ...suffixes);
  const Key = keys.slugSequence(nameOf(claim.scope), claim.base);
  const bump = async () =>
    Number(
      (
        await ddb.send(
          new UpdateCommand({
            TableName: tableName(),
            Key,
            UpdateExpression: 'SET n = if_not_exists(n, :floor) + :one',
            ExpressionAttributeValues: { ':floor': floor, ':one': 1 },
            ReturnValues: 'UPDATED_NEW',
          }),
        )
      ).Attributes?.n,
    );
  const n = await bump();
  if (n > floor) return n;
  try {
    await ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key,
        UpdateExpression: 'SET n = :past',
        ConditionExpression: 'n < :past',
        ExpressionAttributeValues: { ':past': floor + 1 },
      }),
    );
    return floor + 1;
  } catch (e) {
    if ((e as { name?: string }).name !== 'ConditionalCheckFailedException') throw e;
    return bump();
  }
}
/**
 * Transactions lost to concurrent ones before the write gives up (503, retryable by the client). Creates
 * of one type all touch its status totals, so a burst of creates conflicts often: retry with jittered,
 * growing pauses (at most ~0.2 s each) rather than fail.
 */
const MAX_RACES = 40;
const pause = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/**
 * Commits `build(slugs)` with a free slug for every claim (`slugs[i]` for `claims[i]`). The slug
 * guards in the transaction are what make slugs unique; the index read only picks likely-free
 * candidates. A claim that lost its slug to a concurrent writer draws its next suffix from the base's
 * counter (SLUGSEQ), so any number of concurrent writers of one name get distinct, dense suffixes in
 * about two attempts each; a transaction that lost a race retries after a short random pause. An
 * exact claim (a rename) that is taken is a 400 naming `slug`.
 */
export async function commitWithSlugs(
  claims: SlugClaim[],
  build: (slugs: string[]) => Write[],
  commitFn: (writes: Write[]) => Promise<void>,
  known?: Array<Set<string>>,
): Promise<string[]> {
  const taken = known ?? (await slugsTaken(claims));
  const drawn: Array<string | undefined> = claims.map(() => undefined);
  const pick = (i: number) =>
    claims[i]!.exact ? claims[i]!.base : (drawn[i] ?? nextFreeSlug(claims[i]!.base, taken[i]!));
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
        // Concurrent writers of one name each draw the next suffix from a counter: one more attempt
        // each, instead of all of them trying the same next slug round after round.
        taken[e.claim]!.add(slugs[e.claim]!);
        drawn[e.claim] = `${claim.base}-${await nextSuffix(claim, taken[e.claim]!)}`;
        continue;
      }
      if (lostRace(e) && ++races <= MAX_RACES) {
        await pause(Math.random() * Math.min(200, 5 * 2 ** Math.min(races, 6)));
        continue;
      }
      throw e;
    }
  }
  throw new Error(`could not find free slugs for ${claims.map((c) => `"${c.base}"`).join(', ')}`);
}
