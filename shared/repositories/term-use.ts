import type { Taxonomy } from '../domain/records';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { patterns } from '../db/access-patterns';
import { ddb, tableName } from '../db/client';
import { unlessConditionFails } from '../db/conditional';
import { keys, STATUS_SHARDS } from '../db/keys';
import { batchGet, type Item } from '../db/query';
import { addWrite, commit, lostRace, type Write } from '../db/transact';
import { isDeletingTerm, termsInNameOrder } from './terms';

/**
 * Which terms are in use, in name order, so that the default term lists (`hide_empty=true`) read their
 * page and not the taxonomy. Two scopes, after the two counts: `public` (countPublic, what visitors
 * see) and `all` (countAll, what editors see). A term is in a scope's index while its count is above
 * zero: its item then carries that scope's index partition key (the sort key is its name key, kept with
 * every rename), and the taxonomy's totals count it (`inUsePublic` / `inUseAll`).
 *
 * Event writes change counts with unconditional ADDs inside their transaction and cannot see a count
 * cross zero there. So after committing, a write that changed counts calls `syncTermsInUse` for those
 * terms: it reads them and, where the flag disagrees with the count, moves the flag and the total in one
 * transaction conditioned on the count and the flag as they are then. Every count change is followed by
 * its writer's sync, and a sync can only commit what the item holds at that instant, so the last one
 * leaves flag, count and total agreeing; a sync that loses (the count moved again, or another sync did
 * it) has nothing left to do. A writer that dies between its commit and its sync leaves one term out
 * of step until the next write of that term or `npm run reindex`.
 */
export type UseScope = 'public' | 'all';

const SCOPES = [
  { scope: 'public', count: 'countPublic', pk: 'gsi3pk', sk: 'gsi3sk', total: 'inUsePublic' },
  { scope: 'all', count: 'countAll', pk: 'gsi4pk', sk: 'gsi4sk', total: 'inUseAll' },
] as const;

/** Whether a term item belongs in a scope's in-use order: its count is above zero, and it is not being deleted. */
const inUseIn = (item: Item, s: (typeof SCOPES)[number]) =>
  !isDeletingTerm(item) && Number(item[s.count] ?? 0) > 0;

/** A sync that found the item changed since it read it: the writer of that change syncs after it. */
class Settled extends Error {}

const MAX_CONFLICT_RETRIES = 5;

type Scope = (typeof SCOPES)[number];

/**
 * The update that puts a term item in the `add` orders (their partition keys, with `nameKey` as their
 * sort keys) and takes it out of the `drop` ones, under `condition`; `values` are the condition's.
 */
function flagsUpdate(
  item: Item,
  { add, drop }: { add: readonly Scope[]; drop: readonly Scope[] },
  nameKey: string | undefined,
  condition: string,
  values: Record<string, unknown>,
) {
  const set = add.flatMap((s) => [`${s.pk} = :${s.scope}`, ...(nameKey ? [`${s.sk} = :sk`] : [])]);
  const remove = drop.map((s) => s.pk);
  const all: Record<string, unknown> = {
    ...values,
    ...(nameKey && set.length > 0 ? { ':sk': nameKey } : {}),
  };
  for (const s of add) all[`:${s.scope}`] = keys.termInUsePartition(item.taxonomy as Taxonomy, s.scope);
  return {
    TableName: tableName(),
    Key: keys.term(Number(item.id)),
    UpdateExpression: [
      set.length > 0 ? `SET ${set.join(', ')}` : '',
      remove.length > 0 ? `REMOVE ${remove.join(', ')}` : '',
    ].join(' '),
    ConditionExpression: condition,
    ExpressionAttributeValues: all,
  };
}

/**
 * The flag move one term needs, both scopes in one update (a transaction names an item once), with the
 * totals it changes; conditioned on the count and the flag of each scope that moves, as read.
 */
function moveOf(item: Item, shard: number): Write[] {
  const conditions = new Set(['attribute_exists(pk)']);
  const totals: Record<string, number> = {};
  const moves = { add: [] as Scope[], drop: [] as Scope[] };
  for (const s of SCOPES) {
    const inUse = inUseIn(item, s);
    if (inUse === (item[s.pk] !== undefined)) continue;
    totals[s.total] = inUse ? 1 : -1;
    (inUse ? moves.add : moves.drop).push(s);
    const guard = inUse
      ? [`${s.count} > :zero`, `attribute_not_exists(${s.pk})`, 'attribute_not_exists(deleting)']
      : [
          `attribute_exists(${s.pk})`,
          `(attribute_not_exists(${s.count}) OR ${s.count} <= :zero OR attribute_exists(deleting))`,
        ];
    for (const c of guard) conditions.add(c);
  }
  if (Object.keys(totals).length === 0) return [];
  const update = flagsUpdate(item, moves, item.gsi2sk as string | undefined, [...conditions].join(' AND '), {
    ':zero': 0,
  });
  return [
    { item: { Update: update }, onConflict: () => new Settled() },
    addWrite(tableName(), keys.termTotals(item.taxonomy as Taxonomy, shard), totals),
  ];
}

/** Commits moves, retrying lost races; false when a condition failed (some term moved meanwhile). */
async function commitMoves(writes: Write[]): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    try {
      await commit(writes);
      return true;
    } catch (e) {
      if (e instanceof Settled) return false;
      if (!lostRace(e) || attempt >= MAX_CONFLICT_RETRIES) throw e;
      await new Promise((ok) => setTimeout(ok, 10 * 2 ** attempt * Math.random()));
    }
  }
}

/**
 * Brings the in-use flags and totals of these terms in line with their counts (after a count change):
 * one read, and where flags must move one transaction for all of them (the totals of each taxonomy
 * summed into one shard). When a term moved meanwhile, each term's move is tried on its own.
 */
export async function syncTermsInUse(ids: Iterable<number>): Promise<void> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  const items = await batchGet(
    unique.map((id) => keys.term(id)),
    true,
  );
  const shard = Math.floor(Math.random() * STATUS_SHARDS);
  const moves = [...items.values()].map((item) => moveOf(item, shard)).filter((m) => m.length > 0);
  if (moves.length === 0) return;
  if (moves.length > 1 && (await commitMoves(moves.flat()))) return;
  await Promise.all(moves.map(commitMoves));
}

/** The first `limit` terms in use of a taxonomy in name order (ties by ID), from the scope's index. */
export const termsInUseByName = (taxonomy: Taxonomy, scope: UseScope, limit: number, descending = false) =>
  termsInNameOrder(
    (scope === 'public' ? patterns.termsInUsePublic : patterns.termsInUseAll).query(taxonomy),
    limit,
    descending,
  );

/**
 * The rebuild's step for one term (`npm run reindex`, repositories/term-order.ts): sets both scopes'
 * flags and name keys (`nameKey`, the name order's) to what its counts say, in one update conditioned on
 * those counts, so a count moved meanwhile wins (its writer syncs). Returns the scopes it is in use in,
 * which the rebuild sums into the totals.
 */
export async function rebuildInUse(item: Item, nameKey: string | undefined): Promise<UseScope[]> {
  const inUse = SCOPES.filter((s) => inUseIn(item, s));
  const right = SCOPES.every((s) =>
    inUse.includes(s) ? item[s.pk] !== undefined && item[s.sk] === nameKey : item[s.pk] === undefined,
  );
  if (!right) {
    const values: Record<string, unknown> = {};
    const condition = SCOPES.map((s, i) => {
      if (item[s.count] === undefined) return `attribute_not_exists(${s.count})`;
      values[`:c${i}`] = item[s.count];
      return `${s.count} = :c${i}`;
    }).join(' AND ');
    const drop = SCOPES.filter((s) => !inUse.includes(s));
    await unlessConditionFails(
      ddb.send(new UpdateCommand(flagsUpdate(item, { add: inUse, drop }, nameKey, condition, values))),
    );
  }
  return inUse.map((s) => s.scope);
}
