import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Taxonomy } from '../domain/records';
import { ddb, tableName } from '../db/client';
import { unlessConditionFails } from '../db/conditional';
import { patterns } from '../db/access-patterns';
import { keys, STATUS_SHARDS } from '../db/keys';
import { queryIndex } from '../db/query';
import { fromTermItem, isDeletingTerm, termNameKeys, unordered } from './terms';
import { rebuildInUse } from './term-use';

export interface TermOrderReport {
  terms: number;
  updated: number;
}

/** Sets (or removes) one term's name-order keys, unless a write changed the term meanwhile. */
async function setNameKeys(item: Record<string, unknown>, want: ReturnType<typeof termNameKeys>) {
  // A write that changed the term meanwhile wrote its keys itself.
  await unlessConditionFails(
    ddb.send(
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
    ),
  );
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
  for await (const item of queryIndex(patterns.termsOfTaxonomy.query(taxonomy))) {
    const deleting = isDeletingTerm(item);
    const want = deleting ? undefined : termNameKeys(fromTermItem(item));
    for (const scope of await rebuildInUse(item, want?.gsi2sk))
      inUse[scope === 'public' ? 'inUsePublic' : 'inUseAll']++;
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
