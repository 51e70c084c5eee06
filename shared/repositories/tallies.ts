import type { DateBounds } from '../domain/date-bounds';
import { tallyDaysOf, tallyMonth, tallyRange, type TallyWho } from '../domain/tallies';
import { BatchWriteCommand, DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from '../db/client';
import { type Key, keys } from '../db/keys';
import { batchGet, collect, itemKey, queryIndex } from '../db/query';
import { commit, type Write } from '../db/transact';

/** Month tallies of a scope whose start days may lie in [low, high]: one small item per month with events. */
function monthTallies(scope: string, low: string, high: string) {
  return queryIndex({
    partition: keys.tallyPartition(scope),
    sort: { between: [keys.tally(scope, tallyMonth(low)).sk, keys.tally(scope, tallyMonth(high)).sk] },
  });
}

/**
 * Listable events of a scope inside a day-aligned window, counted from the tallies alone, in total and
 * per start day (key order): enough to find the day where any page begins.
 */
export async function tallyDays(
  scope: string,
  who: TallyWho,
  b: DateBounds,
): Promise<{ total: number; days: Array<[string, number]> }> {
  const [low, high] = tallyRange(b);
  const days: Array<[string, number]> = [];
  let total = 0;
  if (low > high) return { total, days };
  for await (const item of monthTallies(scope, low, high))
    for (const [key, n] of tallyDaysOf(item, who, b)) {
      days.push([key, n]);
      total += n;
    }
  return { total, days };
}

/**
 * A category's subtree tallies are wrong after a re-parent or a delete below it: a flag item in the
 * subtree's tally partition (its sort key `STALE` sorts after every month key, so tally reads never see
 * it) makes lists read the links instead, until `npm run reindex` rebuilds the tallies and drops it.
 * `at` is unique per write, so the rebuild drops only the flag it saw.
 */
export function staleTreeWrites(categories: number[], now: string): Write[] {
  const at = `${now}#${Math.random().toString(36).slice(2, 10)}`;
  return categories.map((id) => ({
    item: { Put: { TableName: tableName(), Item: { ...keys.treeStale(id), at } } },
  }));
}

/** Flags these categories' subtree tallies as wrong, in a write of their own. */
export async function markStaleTrees(categories: number[], now: string): Promise<void> {
  await commit(staleTreeWrites(categories, now));
}

/** Whether a category's subtree tallies are flagged wrong (a strongly consistent read). */
export async function treeIsStale(category: number): Promise<boolean> {
  const out = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: keys.treeStale(category), ConsistentRead: true }),
  );
  return out.Item !== undefined;
}

/** The flags of these categories: category ID → the `at` of its flag. */
export async function staleTrees(categories: number[]): Promise<Map<number, string>> {
  const found = await batchGet(categories.map((id) => keys.treeStale(id)));
  const out = new Map<number, string>();
  for (const id of categories) {
    const item = found.get(itemKey(keys.treeStale(id)));
    if (item) out.set(id, String(item.at));
  }
  return out;
}

/** Drops a flag once the rebuild is written, unless a later change flagged the category again. */
export async function clearStaleTree(category: number, seen: string): Promise<void> {
  try {
    await ddb.send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.treeStale(category),
        ConditionExpression: '#at = :seen',
        ExpressionAttributeNames: { '#at': 'at' },
        ExpressionAttributeValues: { ':seen': seen },
      }),
    );
  } catch (e) {
    if ((e as { name?: string }).name !== 'ConditionalCheckFailedException') throw e;
  }
}

const STALE = keys.treeStale(0).sk;

/** The month items of a scope's tallies, its pairs' too (not a subtree's stale flag). */
export async function tallyKeys(scope: string): Promise<Key[]> {
  const items = await collect(
    queryIndex({ partition: keys.tallyPartition(scope), attributes: ['pk', 'sk'] }),
  );
  return items.filter((i) => i.sk !== STALE).map((i) => ({ pk: String(i.pk), sk: String(i.sk) }));
}

/**
 * Writes tally items as absolute counts (the rebuild's): an ADD made by an event write meanwhile to
 * the same item is overwritten, so rebuilds run while no events are written.
 */
export async function putTallyItems(items: Array<Record<string, unknown>>): Promise<void> {
  for (let i = 0; i < items.length; i += 25) {
    let pending = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) as Array<
      Record<string, unknown>
    >;
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt >= 8) throw new Error('DynamoDB left tally writes unprocessed 8 times: try again later');
      const out = await ddb.send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
      pending = (out.UnprocessedItems?.[tableName()] as Array<Record<string, unknown>> | undefined) ?? [];
    }
  }
}
