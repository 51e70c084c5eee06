import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { EventData, EventRecord } from '../domain/event-record';
import { ddb, tableName } from '../db/client';
import { keys } from '../db/keys';
import type { WriteItem } from '../db/transact';
import { type Deltas, deltaWrites, eventWrites } from './event-writes';
import { getPost } from './posts';

/**
 * An event's ticket count (PostRecord `tickets`), moved by the ticket writes in their own transaction
 * (docs/tickets.md, "ticketed on the events list"). While the count is above zero the event is
 * ticketed: its filter rows say so, it has a membership row in the ticketed events' partition
 * (byAssignment `TICKETED#0`, read by `ticketed=true`) and it is counted in the TICKETED tallies
 * (which, less from the ALL tallies, count `ticketed=false`). A count that crosses zero changes all of
 * that, and the event's own write path (event-writes.ts eventWrites) is what computes it: the ticket
 * write is an event write of the count alone. So every index stays in step with the record, whatever
 * writes the event next.
 *
 * The record's update raises its version under a condition on the one read: an event write racing a
 * ticket write loses (and is retried, or answers 409 / 412 with If-Match, as any lost race), and so
 * does the ticket write, which reads the event again (`retry` below). The event's ETag changes with
 * its ticket count; its body does not.
 */

/** What moving some events' ticket counts writes. */
export interface TicketCountWrites {
  /** The events' record updates first (each conditioned on the version read), then what they move. */
  items: WriteItem[];
  /** How many of `items` are conditioned record updates: a failed condition below this index is a race to retry. */
  guarded: number;
  /** Events that are gone (or being deleted): nothing of theirs is written. */
  missing: number[];
}

/**
 * The writes that move each event's ticket count by `by` (+1 a ticket created or moved to it, -1 one
 * deleted or moved away), or set it `to` a count (the reindex). The category subtrees' tallies do not change with the count, so they are
 * left out of both states (no taxonomy read); the events' tally deltas are summed, since two events of
 * one month share their month items and a transaction names an item once.
 */
export async function ticketCountWrites(
  changes: Array<{ eventId: number; by?: number; to?: number }>,
): Promise<TicketCountWrites> {
  const records: WriteItem[] = [];
  const moved: WriteItem[] = [];
  const missing: number[] = [];
  const deltas: Deltas = new Map();
  for (const { eventId, by = 0, to } of changes) {
    const before = (await getPost<EventData>(eventId)) as EventRecord | undefined;
    if (before?.type !== 'event') {
      missing.push(eventId);
      continue;
    }
    const count = Math.max(0, to ?? (before.tickets ?? 0) + by);
    if (count === (before.tickets ?? 0)) continue;
    const after: EventRecord = { ...before, version: before.version + 1 };
    if (count > 0) after.tickets = count;
    else delete after.tickets;
    records.push(countUpdate(before, count));
    moved.push(
      ...eventWrites(before, after, { linkedGone: () => new Error('no link is added'), deltas }).map(
        (w) => w.item,
      ),
    );
  }
  return {
    items: [...records, ...moved, ...deltaWrites(deltas).map((w) => w.item)],
    guarded: records.length,
    missing,
  };
}

function countUpdate(before: EventRecord, count: number): WriteItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.post(before.id),
      UpdateExpression: count > 0 ? 'SET #t = :t, version = :next' : 'SET version = :next REMOVE #t',
      ConditionExpression: 'version = :v AND attribute_not_exists(deleting)',
      ExpressionAttributeNames: { '#t': 'tickets' },
      ExpressionAttributeValues: {
        ':v': before.version,
        ':next': before.version + 1,
        ...(count > 0 ? { ':t': count } : {}),
      },
    },
  };
}

/**
 * Sets an event's ticket count to the number of its tickets (`npm run reindex`, for events whose
 * tickets were written before the count was kept); false when the event is gone. A write of the event
 * meanwhile makes it read the event again.
 */
export async function setTicketCount(eventId: number, count: number): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    const { items, missing } = await ticketCountWrites([{ eventId, to: count }]);
    if (missing.length > 0) return false;
    if (items.length === 0) return true;
    try {
      await ddb.send(new TransactWriteCommand({ TransactItems: items }));
      return true;
    } catch (e) {
      const raced =
        e instanceof TransactionCanceledException &&
        (e.CancellationReasons ?? []).some(
          (r) => r?.Code === 'ConditionalCheckFailed' || r?.Code === 'TransactionConflict',
        );
      if (!raced || attempt >= 20) throw e;
    }
  }
}
