import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  PutCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { ddb } from './client';
import { unlessConditionFails } from './conditional';

export type WriteItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** One item of a transaction and what a failed condition on it means. */
export interface Write {
  item: WriteItem;
  /**
   * What a failed condition on this item means: `{ claim: i }` the slug of claim `i` is taken (try
   * another; `counter`: this item is the claim's slug counter, which another writer moved), a function
   * the error to throw instead.
   */
  onConflict?: { claim: number; counter?: boolean } | (() => Error | Promise<Error>);
  /**
   * Marks `item` as an unconditional `ADD` of these amounts to its Update's key: such writes to one
   * item in one transaction are summed into one (a transaction may name an item only once).
   */
  adds?: Record<string, number>;
}

/** An unconditional ADD of `adds` to one item. */
export const addWrite = (
  TableName: string,
  Key: Record<string, unknown>,
  adds: Record<string, number>,
): Write => {
  const entries = Object.entries(adds);
  return {
    item: {
      Update: {
        TableName,
        Key,
        UpdateExpression: `ADD ${entries.map((_, i) => `#a${i} :a${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(entries.map(([a], i) => [`#a${i}`, a])),
        ExpressionAttributeValues: Object.fromEntries(entries.map(([, n], i) => [`:a${i}`, n])),
      },
    },
    adds,
  };
};

/** Sums the `adds` writes of one item (several new terms of one event may pick the same totals shard). */
function summed(writes: Write[]): Write[] {
  const byItem = new Map<string, Write>();
  const out: Write[] = [];
  for (const w of writes) {
    const u = w.item.Update;
    if (!w.adds || !u) {
      out.push(w);
      continue;
    }
    const id = `${u.TableName}|${JSON.stringify(u.Key)}`;
    const first = byItem.get(id);
    if (!first) {
      byItem.set(id, { ...w, adds: { ...w.adds } });
      out.push(byItem.get(id)!);
      continue;
    }
    for (const [a, n] of Object.entries(w.adds)) first.adds![a] = (first.adds![a] ?? 0) + n;
  }
  return out.map((w) =>
    w.adds && w.item.Update ? { ...w, ...addWrite(w.item.Update.TableName!, w.item.Update.Key!, w.adds) } : w,
  );
}

/**
 * The slug of one claim of the transaction is held by another record; `counterMoved`: its base's
 * counter moved since it was read too (a concurrent writer of the name took it, not an older record).
 */
export class SlugTaken extends Error {
  constructor(
    readonly claim: number,
    readonly counterMoved = false,
  ) {
    super(`slug claim ${claim} is taken`);
  }
}

/** DynamoDB's limit of items in one transaction. */
export const MAX_TRANSACTION_ITEMS = 100;

/** Whether a cancelled transaction lost a race with another one (retrying may succeed). */
export const lostRace = (e: unknown) =>
  e instanceof TransactionCanceledException &&
  (e.CancellationReasons ?? []).some((r) => r?.Code === 'TransactionConflict');

/** Writes all items or none; a failed condition becomes the error its item names. */
export async function commit(planned: Write[]): Promise<void> {
  if (planned.length === 0) return;
  const writes = summed(planned);
  try {
    await ddb.send(new TransactWriteCommand({ TransactItems: writes.map((w) => w.item) }));
  } catch (e) {
    if (!(e instanceof TransactionCanceledException)) throw e;
    const reasons = e.CancellationReasons ?? [];
    const failed = writes.filter((_, i) => reasons[i]?.Code === 'ConditionalCheckFailed');
    for (const { onConflict } of failed) {
      if (typeof onConflict === 'object') {
        const counter = failed.some(
          (w) =>
            typeof w.onConflict === 'object' &&
            w.onConflict.claim === onConflict.claim &&
            w.onConflict.counter,
        );
        throw new SlugTaken(onConflict.claim, counter);
      }
      if (onConflict) throw await onConflict();
    }
    throw e;
  }
}

/** A write that may have to be undone: `undo` reverses it; `final` items go in the last transaction. */
export interface PlannedWrite extends Write {
  undo?: WriteItem;
  /** The record's own item and the conditions that decide the write: committed last, all together. */
  final?: boolean;
}

/**
 * Commits a write of any size. Up to 100 items it is one transaction. Beyond that, the items that
 * only follow from the record (links, counts, tallies, records it creates) go first in transactions
 * of 100, and the record's own items last; if any step fails, the steps already committed are undone
 * item by item (counts and tallies are deltas, so undoing them is exact) and the error is rethrown,
 * so a failed write leaves nothing behind.
 */
export async function commitAll(writes: PlannedWrite[]): Promise<void> {
  if (writes.length <= MAX_TRANSACTION_ITEMS) return commit(writes);
  const finals = writes.filter((w) => w.final);
  const rest = writes.filter((w) => !w.final);
  const room = MAX_TRANSACTION_ITEMS - finals.length;
  const last = [...rest.slice(0, room), ...finals];
  const steps: PlannedWrite[][] = [];
  for (let i = room; i < rest.length; i += MAX_TRANSACTION_ITEMS)
    steps.push(rest.slice(i, i + MAX_TRANSACTION_ITEMS));
  const done: PlannedWrite[] = [];
  try {
    for (const step of steps) {
      await commit(step);
      done.push(...step);
    }
    await commit(last);
  } catch (e) {
    await undo(done);
    throw e;
  }
}

/** Reverses committed items one by one, newest first; an item someone changed since is left to them. */
async function undo(writes: PlannedWrite[]): Promise<void> {
  for (const w of [...writes].reverse()) {
    if (w.undo) await unlessConditionFails(send(w.undo));
  }
}

async function send(item: WriteItem): Promise<void> {
  if (item.Put) await ddb.send(new PutCommand(item.Put));
  else if (item.Delete) await ddb.send(new DeleteCommand(item.Delete));
  else if (item.Update) await ddb.send(new UpdateCommand(item.Update));
}
