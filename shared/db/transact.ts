import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { nextFreeSlug } from '../services/slugs';
import { ddb, tableName } from './client';
import { queryItems } from './query';
import { TABLE } from './table';

export type WriteItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** One item of a transaction and what a failed condition on it means. */
export interface Write {
  item: WriteItem;
  /** 'slug': the slug guard is taken, try the next slug. A function: the error to throw instead. */
  onConflict?: 'slug' | (() => Error | Promise<Error>);
}

class SlugTaken extends Error {}

/** Writes all items or none; a failed condition becomes the error its item names. */
export async function commit(writes: Write[]): Promise<void> {
  try {
    await ddb.send(new TransactWriteCommand({ TransactItems: writes.map((w) => w.item) }));
  } catch (e) {
    if (!(e instanceof TransactionCanceledException)) throw e;
    const reasons = e.CancellationReasons ?? [];
    for (let i = 0; i < reasons.length; i++) {
      if (reasons[i]?.Code !== 'ConditionalCheckFailed') continue;
      const onConflict = writes[i]?.onConflict;
      if (onConflict === 'slug') throw new SlugTaken();
      if (onConflict) throw await onConflict();
    }
    throw e;
  }
}

/** Slugs of one GSI partition that start with `base` (records keep their slug until deleted). */
async function takenSlugs(partition: string, base: string): Promise<string[]> {
  const ix = TABLE.indexes.bySlug;
  const out: string[] = [];
  for await (const item of queryItems({
    IndexName: ix.name,
    KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :base)',
    ExpressionAttributeNames: { '#pk': ix.partitionKey, '#sk': ix.sortKey },
    ExpressionAttributeValues: { ':pk': partition, ':base': base },
    ProjectionExpression: '#sk',
  }))
    out.push(String(item[ix.sortKey]));
  return out;
}

/**
 * Commits `build(slug)` with the first free slug. The slug guard in the transaction is what makes the
 * slug unique; the index read only picks a likely-free candidate, and a lost race moves on to the next.
 */
export async function commitWithUniqueSlug(
  partition: string,
  base: string,
  build: (slug: string) => Write[],
): Promise<string> {
  const taken = new Set(await takenSlugs(partition, base));
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
