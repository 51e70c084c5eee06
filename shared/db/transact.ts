import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { ddb } from './client';

export type WriteItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** One item of a transaction and what a failed condition on it means. */
export interface Write {
  item: WriteItem;
  /** 'slug': the slug guard is taken, try the next slug. A function: the error to throw instead. */
  onConflict?: 'slug' | (() => Error | Promise<Error>);
}

/** A slug guard of the transaction was taken by another record. */
export class SlugTaken extends Error {}

/** DynamoDB's limit of items in one transaction. */
export const MAX_TRANSACTION_ITEMS = 100;

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
