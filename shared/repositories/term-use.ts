import type { Taxonomy } from '../domain/records';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from '../db/client';
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

const INDEX = { public: 'byEnd', all: 'byAssignment' } as const;

/** Whether a term item belongs in a scope's in-use order: its count is above zero, and it is not being deleted. */
const inUseIn = (item: Item, s: (typeof SCOPES)[number]) =>
  !isDeletingTerm(item) && Number(item[s.count] ?? 0) > 0;

/** A sync that found the item changed since it read it: the writer of that change syncs after it. */
class Settled extends Error {}

const MAX_CONFLICT_RETRIES = 5;

/** The flag moves one term needs (both scopes in one Update: a transaction names an item once). */
function moveOf(item: Item, shard: number): Write[] {
  const taxonomy = item.taxonomy as Taxonomy;
  const nameKey = item.gsi2sk as string | undefined;
  const set: string[] = [];
  const remove: string[] = [];
  const conditions: string[] = ['attribute_exists(pk)'];
  const values: Record<string, unknown> = { ':zero': 0 };
  const totals: Record<string, number> = {};
  for (const s of SCOPES) {
    const inUse = inUseIn(item, s);
    if (inUse === (item[s.pk] !== undefined)) continue;
    totals[s.total] = inUse ? 1 : -1;
    if (inUse) {
      set.push(`${s.pk} = :${s.scope}`);
      values[`:${s.scope}`] = keys.termInUsePartition(taxonomy, s.scope);
      if (nameKey) set.push(`${s.sk} = :sk`);
      conditions.push(
        `${s.count} > :zero`,
        `attribute_not_exists(${s.pk})`,
        'attribute_not_exists(deleting)',
      );
    } else {
      remove.push(s.pk);
      conditions.push(
        `attribute_exists(${s.pk})`,
        `(attribute_not_exists(${s.count}) OR ${s.count} <= :zero OR attribute_exists(deleting))`,
      );
    }
  }
  if (set.length === 0 && remove.length === 0) return [];
  if (nameKey && set.length > 0) values[':sk'] = nameKey;
  const flag: Write = {
    item: {
      Update: {
        TableName: tableName(),
        Key: keys.term(Number(item.id)),
        UpdateExpression: [
          set.length > 0 ? `SET ${set.join(', ')}` : '',
          remove.length > 0 ? `REMOVE ${remove.join(', ')}` : '',
        ].join(' '),
        ConditionExpression: [...new Set(conditions)].join(' AND '),
        ExpressionAttributeValues: values,
      },
    },
    onConflict: () => new Settled(),
  };
  return [flag, addWrite(tableName(), keys.termTotals(taxonomy, shard), totals)];
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
  termsInNameOrder(INDEX[scope], keys.termInUsePartition(taxonomy, scope), limit, descending);

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
    const set = inUse.flatMap((s) => [`${s.pk} = :${s.scope}`, ...(nameKey ? [`${s.sk} = :sk`] : [])]);
    const remove = SCOPES.filter((s) => !inUse.includes(s)).map((s) => s.pk);
    const values: Record<string, unknown> = nameKey && set.length > 0 ? { ':sk': nameKey } : {};
    for (const s of inUse)
      values[`:${s.scope}`] = keys.termInUsePartition(item.taxonomy as Taxonomy, s.scope);
    const conditions = SCOPES.map((s, i) => {
      if (item[s.count] === undefined) return `attribute_not_exists(${s.count})`;
      values[`:c${i}`] = item[s.count];
      return `${s.count} = :c${i}`;
    });
    try {
      await ddb.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.term(Number(item.id)),
          UpdateExpression: [
            set.length > 0 ? `SET ${set.join(', ')}` : '',
            remove.length > 0 ? `REMOVE ${remove.join(', ')}` : '',
          ].join(' '),
          ConditionExpression: conditions.join(' AND '),
          ExpressionAttributeValues: values,
        }),
      );
    } catch (e) {
      if ((e as { name?: string }).name !== 'ConditionalCheckFailedException') throw e;
    }
  }
  return inUse.map((s) => s.scope);
}
