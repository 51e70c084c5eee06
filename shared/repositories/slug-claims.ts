import { invalidParam } from '../domain/errors';
import type { PostType, Taxonomy } from '../domain/records';
import { highestSuffix, withSuffix } from '../domain/slugs';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from '../db/client';
import { unlessConditionFails } from '../db/conditional';
import { patterns } from '../db/access-patterns';
import { keys } from '../db/keys';
import { batchGet, type Item, itemKey, queryIndex } from '../db/query';
import { lostRace, type PlannedWrite, SlugTaken, type Write } from '../db/transact';

/** A slug namespace: the posts of one type or the terms of one taxonomy. */
export type SlugScope = { type: PostType } | { taxonomy: Taxonomy };

/** A slug a write needs: the first free one from `base`, or exactly `base` (a rename) or a 400. */
export interface SlugClaim {
  scope: SlugScope;
  base: string;
  exact?: boolean;
}

const nounOf = (scope: SlugScope) =>
  'type' in scope ? scope.type : scope.taxonomy === 'tribe_events_cat' ? 'category' : 'tag';

/** Records of a slug scope whose slug starts with `base` (bySlug index, prefix of the sort key). */
export function recordsWithSlugPrefix(
  scope: SlugScope,
  base: string,
  attributes?: string[],
): AsyncGenerator<Item> {
  return queryIndex({ ...patterns.slugsWithPrefix.query(scope, base), attributes });
}

async function takenSlugs(claim: SlugClaim): Promise<Set<string>> {
  const taken = new Set<string>();
  for await (const item of recordsWithSlugPrefix(claim.scope, claim.base, ['gsi1sk']))
    taken.add(String(item.gsi1sk));
  return taken;
}

/**
 * What the reads before a write found for one claim: whether its base is taken, and the base's
 * counter, the highest `-N` handed out for it (undefined when none was).
 */
export interface SlugState {
  baseTaken: boolean;
  counter?: number;
}

const guardOf = (c: SlugClaim) => keys.slugGuard(nameOf(c.scope), c.base);
const counterOf = (c: SlugClaim) => keys.slugSequence(nameOf(c.scope), c.base);

/**
 * The state of each claim's base: its slug guard and its counter, two small items per claim read in
 * one call whatever the number of records named like it (reading their slugs grew with the calendar:
 * a weekly event's hundredth create read a hundred). Strongly consistent, so that a client creating
 * one name in a row does not race its own writes. A caller that knows the claims early may read them
 * itself (alongside other reads) and pass them on to commitWithSlugs.
 */
export async function slugStates(claims: SlugClaim[]): Promise<SlugState[]> {
  const open = claims.filter((c) => !c.exact);
  const found =
    open.length > 0
      ? await batchGet(
          open.flatMap((c) => [guardOf(c), counterOf(c)]),
          true,
        )
      : new Map();
  return claims.map((c) => {
    if (c.exact) return { baseTaken: false };
    const n = found.get(itemKey(counterOf(c)))?.n;
    return { baseTaken: found.has(itemKey(guardOf(c))), counter: typeof n === 'number' ? n : undefined };
  });
}

/** Enough for the 100 concurrent writers of one name that a Lambda burst can bring. */
const MAX_ATTEMPTS = 200;

const nameOf = (scope: SlugScope) => ('type' in scope ? scope.type : scope.taxonomy);

/**
 * The next `-N` of a slug base after a claim was lost, from its counter. A counter can lag behind the
 * suffixes in use (records written before counters were kept, renames to a `-N`): counting up
 * through them would cost a transaction each (a 500 once MAX_ATTEMPTS ran out), so such a counter is
 * moved past the highest suffix seen, once, unless a concurrent writer already moved it.
 */
async function nextSuffix(claim: SlugClaim, taken: Set<string>): Promise<number> {
  const floor = Math.max(1, highestSuffix(claim.base, taken));
  const Key = counterOf(claim);
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
  const moved = await unlessConditionFails(
    ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key,
        UpdateExpression: 'SET n = :past',
        ConditionExpression: 'n < :past',
        ExpressionAttributeValues: { ':past': floor + 1 },
      }),
    ),
  );
  return moved ? floor + 1 : bump();
}

/**
 * The counter write of a claim that takes `-k` as the next suffix its counter gives: it moves the
 * counter to k, on condition that nobody moved it since it was read (else the claim is lost and
 * draws again), in the write's last transaction.
 */
function counterWrite(claim: SlugClaim, i: number, read: number | undefined, k: number): PlannedWrite {
  return {
    item: {
      Update: {
        TableName: tableName(),
        Key: counterOf(claim),
        UpdateExpression: 'SET n = :k',
        ConditionExpression: read === undefined ? 'attribute_not_exists(n)' : 'n = :read',
        ExpressionAttributeValues: { ':k': k, ...(read === undefined ? {} : { ':read': read }) },
      },
    },
    onConflict: { claim: i, counter: true },
    final: true,
  };
}

/**
 * Transactions lost to concurrent ones before the write gives up (503, retryable by the client). Creates
 * of one type all touch its status totals, so a burst of creates conflicts often: retry with jittered,
 * growing pauses (at most ~0.2 s each) rather than fail.
 */
const MAX_RACES = 40;
const pause = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/**
 * Commits `build(slugs)` with a free slug for every claim (`slugs[i]` for `claims[i]`): the base when
 * its guard is free, else `base-N` one above the base's counter, which the same transaction moves on
 * (so the counter always holds the highest suffix handed out). The slug guards in the transaction are
 * what make slugs unique; the reads only pick likely-free candidates. A claim that lost its slug to a
 * concurrent writer draws its next suffix from the counter, so any number of concurrent writers of
 * one name get distinct, dense suffixes in about two attempts each; a transaction that lost a race
 * retries after a short random pause. An exact claim (a rename) that is taken is a 400 naming `slug`.
 */
export async function commitWithSlugs(
  claims: SlugClaim[],
  build: (slugs: string[]) => Write[],
  commitFn: (writes: PlannedWrite[]) => Promise<void>,
  known?: SlugState[],
): Promise<string[]> {
  const states = known ?? (await slugStates(claims));
  // After a lost claim: the slugs its base names (read once) and the suffix drawn from the counter.
  const taken: Array<Set<string> | undefined> = claims.map(() => undefined);
  const drawn: Array<string | undefined> = claims.map(() => undefined);
  let races = 0;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const counters: PlannedWrite[] = [];
    const slugs = claims.map((claim, i) => {
      const { baseTaken, counter } = states[i]!;
      if (claim.exact || (!drawn[i] && !baseTaken)) return claim.base;
      if (drawn[i]) return drawn[i]!;
      const k = Math.max(counter ?? 1, 1) + 1;
      counters.push(counterWrite(claim, i, counter, k));
      return withSuffix(claim.base, k);
    });
    try {
      await commitFn([...build(slugs), ...counters]);
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
        // Lost to a concurrent writer of the name (who moved the counter too): the next suffix comes
        // from the counter. Lost to an older record while the counter stayed: the counter is behind
        // the suffixes in use, and is moved past every one of them (read once).
        const seen = e.counterMoved
          ? (taken[e.claim] ?? new Set<string>())
          : (taken[e.claim] ??= await takenSlugs(claim));
        seen.add(slugs[e.claim]!);
        drawn[e.claim] = withSuffix(claim.base, await nextSuffix(claim, seen));
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
