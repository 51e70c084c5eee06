import type { DateBounds } from '../domain/date-bounds';
import {
  detailMonths,
  nextMonth,
  sumDaysOf,
  tallyDaysOf,
  tallyMonth,
  tallyRange,
  type TallyScope,
  type TallyWho,
} from '../domain/tallies';
import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { patterns } from '../db/access-patterns';
import { ddb, tableName } from '../db/client';
import { unlessConditionFails } from '../db/conditional';
import { type Key, keys } from '../db/keys';
import { batchDelete, batchGet, batchPut, collect, itemKey, queryIndex } from '../db/query';
import { commit, type Write } from '../db/transact';

/** Month items of a scope (`key`: its detail items or its day sums) for start months [low, high]. */
function months(
  scope: TallyScope,
  key: (scope: TallyScope, month: string) => Key,
  low: string,
  high: string,
) {
  return collect(queryIndex(patterns.tallyMonths.query(scope, key(scope, low).sk, key(scope, high).sk)));
}

/** Months from `first` to `last` (`YYYY-MM`), both counted; infinite when either is unbounded. */
function monthsFrom(first: string, last: string): number {
  const at = (m: string) => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7));
  return /^\d{4}-\d\d$/.test(first) && /^\d{4}-\d\d$/.test(last) ? at(last) - at(first) + 1 : Infinity;
}

/** Runs of consecutive months (`YYYY-MM`, in order) as [first, last]. */
function runs(list: string[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const m of list) {
    const last = out.at(-1);
    if (last && nextMonth(last[1]) === m) last[1] = m;
    else out.push([m, m]);
  }
  return out;
}

/**
 * Listable events of a scope inside a day-aligned window, counted from the tallies alone, in total and
 * per start day (key order): enough to find the day where any page begins. Each month of the window
 * is counted from its day sums, small whatever the number of events; the months near an end bound
 * (needsDetail), from their detail items, read alongside.
 */
export async function tallyDays(
  scope: TallyScope,
  who: TallyWho,
  b: DateBounds,
): Promise<{ total: number; days: Array<[string, number]> }> {
  const [low, high] = tallyRange(b);
  const days: Array<[string, number]> = [];
  let total = 0;
  if (low > high) return { total, days };
  const [first, last] = [tallyMonth(low), tallyMonth(high)];
  const detailed = new Set(detailMonths(b).filter((m) => m >= first && m <= last));
  // A window of a month or two is near its end bound all along: its detail items alone count it.
  const allDetailed = detailed.size === monthsFrom(first, last);
  const [sums, ...details] = await Promise.all([
    allDetailed ? [] : months(scope, keys.tallySums, first, last),
    ...runs([...detailed]).map(([from, to]) => months(scope, keys.tally, from, to)),
  ]);
  const byMonth = new Map<string, Array<[string, number]>>();
  for (const item of sums!) {
    const month = String(item.sk).slice(-7);
    if (!detailed.has(month)) byMonth.set(month, sumDaysOf(item, who, b));
  }
  for (const item of details.flat()) byMonth.set(String(item.sk).slice(-7), tallyDaysOf(item, who, b));
  for (const month of [...byMonth.keys()].sort())
    for (const [key, n] of byMonth.get(month)!) {
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
  await unlessConditionFails(
    ddb.send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.treeStale(category),
        ConditionExpression: '#at = :seen',
        ExpressionAttributeNames: { '#at': 'at' },
        ExpressionAttributeValues: { ':seen': seen },
      }),
    ),
  );
}

const STALE = keys.treeStale(0).sk;

/** The month items of a scope's tallies, its pairs' too (not a subtree's stale flag). */
/** The partition a scope's tally items are in (what a rebuild compares a tally item's pk with). */
export const tallyPartition = (scope: TallyScope): string => keys.tallyPartition(scope);

/** Deletes tally items a rebuild found no event for. */
export const deleteTallyItems = (stray: Key[]) => batchDelete(stray);

export async function tallyKeys(scope: TallyScope): Promise<Key[]> {
  const items = await collect(queryIndex(patterns.tallyItemKeys.query(scope)));
  return items.filter((i) => i.sk !== STALE).map((i) => ({ pk: String(i.pk), sk: String(i.sk) }));
}

/**
 * Writes tally items as absolute counts (the rebuild's): an ADD made by an event write meanwhile to
 * the same item is overwritten, so rebuilds run while no events are written.
 */
export const putTallyItems = (items: Array<Record<string, unknown>>): Promise<void> => batchPut(items);
