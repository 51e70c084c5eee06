import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Taxonomy } from '../domain/records';
import { ddb, tableName } from '../db/client';
import { keys, STATUS_SHARDS } from '../db/keys';
import { queryIndex } from '../db/query';
import { fromTermItem, isDeletingTerm, termNameKeys, unordered } from './terms';
import { useScopes } from './term-use';

export interface TermOrderReport {
  terms: number;
  updated: number;
}

/** Sets (or removes) one term's name-order keys, unless a write changed the term meanwhile. */
async function setNameKeys(item: Record<string, unknown>, want: ReturnType<typeof termNameKeys>) {
  try {
    await ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.term(Number(item.id)),
        UpdateExpression: want ? 'SET gsi2pk = :pk, gsi2sk = :sk' : 'REMOVE gsi2pk, gsi2sk',
        ConditionExpression: 'version = :v',
        ExpressionAttributeValues: {
          ':v': item.version,
          ...(want ? { ':pk': want.gsi2pk, ':sk': want.gsi2sk } : {}),
        },
      }),
    );
  } catch (e) {
    // A write that changed the term meanwhile wrote its keys itself.
    if ((e as { name?: string }).name !== 'ConditionalCheckFailedException') throw e;
  }
}

/**
 * Sets (or removes) one term's in-use flag of a scope to what its count says, unless the count moved
 * meanwhile (the write that moved it syncs the flag itself). Returns whether the term is in use.
 */
async function setInUse(
  item: Record<string, unknown>,
  s: (typeof useScopes)[number],
  taxonomy: Taxonomy,
  sk: string | undefined,
) {
  const count = Number(item[s.count] ?? 0);
  const inUse = !isDeletingTerm(item) && count > 0;
  if (inUse === (item[s.pk] !== undefined) && (!inUse || item[s.sk] === sk)) return inUse;
  try {
    await ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.term(Number(item.id)),
        UpdateExpression: inUse ? `SET ${s.pk} = :pk${sk ? `, ${s.sk} = :sk` : ''}` : `REMOVE ${s.pk}`,
        ConditionExpression:
          item[s.count] === undefined ? `attribute_not_exists(${s.count})` : `${s.count} = :c`,
        ExpressionAttributeValues: {
          ...(item[s.count] === undefined ? {} : { ':c': count }),
          ...(inUse ? { ':pk': keys.termInUsePartition(taxonomy, s.scope) } : {}),
          ...(inUse && sk ? { ':sk': sk } : {}),
        },
      }),
    );
  } catch (e) {
    if ((e as { name?: string }).name !== 'ConditionalCheckFailedException') throw e;
  }
  return inUse;
}

/**
 * Rebuilds a taxonomy's name order, in-use orders and totals from its term records (`npm run reindex`):
 * terms written before these indexes existed get their keys, and the totals are set to what the
 * records hold. The totals are set, not added to: a term created or deleted while this runs may leave them one off, so
 * run it when terms are not being written (the keys themselves are safe at any time).
 */
export async function rebuildTermOrder(taxonomy: Taxonomy): Promise<TermOrderReport> {
  const report: TermOrderReport = { terms: 0, updated: 0 };
  let unorderedTerms = 0;
  const inUse = { inUsePublic: 0, inUseAll: 0 };
  for await (const item of queryIndex({ index: 'bySlug', partition: keys.taxonomyPartition(taxonomy) })) {
    const deleting = isDeletingTerm(item);
    const want = deleting ? undefined : termNameKeys(fromTermItem(item));
    for (const s of useScopes) if (await setInUse(item, s, taxonomy, want?.gsi2sk)) inUse[s.total]++;
    if (!deleting) {
      report.terms++;
      unorderedTerms += unordered(String(item.name));
    }
    if (want?.gsi2pk === item.gsi2pk && want?.gsi2sk === item.gsi2sk) continue;
    await setNameKeys(item, want);
    report.updated++;
  }
  await Promise.all(
    Array.from({ length: STATUS_SHARDS }, (_, shard) =>
      ddb.send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            ...keys.termTotals(taxonomy, shard),
            terms: shard === 0 ? report.terms : 0,
            unordered: shard === 0 ? unorderedTerms : 0,
            inUsePublic: shard === 0 ? inUse.inUsePublic : 0,
            inUseAll: shard === 0 ? inUse.inUseAll : 0,
          },
        }),
      ),
    ),
  );
  return report;
}
