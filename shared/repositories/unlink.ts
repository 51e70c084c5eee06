import { keys, type LinkKind } from '../db/keys';
import { tableName } from '../db/client';
import { queryItems } from '../db/query';
import { TABLE } from '../db/table';
import type { Write } from '../db/transact';
import { ApiError } from '../http/errors';
import type { EventData, EventRecord } from './event-record';
import { addTallies, type Deltas, deltaWrites } from './event-writes';
import { getPosts } from './posts';

/** Most events one record can be unlinked from in a single transaction (two writes each, plus tallies). */
const MAX_EVENTS = 30;

/**
 * The writes that unlink a term, venue or organizer from every event, for the transaction that trashes
 * or deletes it: each event's list loses the ID (under the event's version condition), the link items
 * go, and the record's own tallies drop those events.
 */
export async function unlinkWrites(kind: LinkKind, targetId: number, stale: () => Error): Promise<Write[]> {
  const ix = TABLE.indexes.byAssignment;
  const eventIds: number[] = [];
  for await (const item of queryItems({
    IndexName: ix.name,
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': ix.partitionKey },
    ExpressionAttributeValues: { ':pk': keys.assignmentPartition(kind, targetId) },
    ProjectionExpression: 'eventId',
  }))
    eventIds.push(Number(item.eventId));
  if (eventIds.length === 0) return [];
  if (eventIds.length > MAX_EVENTS)
    throw new ApiError(
      409,
      'rest_too_many_links',
      `The record is linked to ${eventIds.length} events; unlink them first (at most ${MAX_EVENTS} at once).`,
    );
  const events = await getPosts<EventData>(eventIds);
  const writes: Write[] = [];
  const tallies: Deltas = new Map();
  for (const e of events.values()) {
    const event = e as EventRecord;
    const field =
      kind === 'VENUE'
        ? 'venues'
        : kind === 'ORGANIZER'
          ? 'organizers'
          : event.data.categories.includes(targetId)
            ? 'categories'
            : 'tags';
    addTallies(tallies, event, -1, `${kind}#${targetId}`);
    writes.push({ item: { Delete: { TableName: tableName(), Key: keys.link(event.id, kind, targetId) } } });
    writes.push({
      item: {
        Update: {
          TableName: tableName(),
          Key: keys.post(event.id),
          UpdateExpression: 'SET #d.#f = :list, #v = :next',
          ConditionExpression: '#v = :current',
          ExpressionAttributeNames: { '#d': 'data', '#f': field, '#v': 'version' },
          ExpressionAttributeValues: {
            ':list': event.data[field].filter((id) => id !== targetId),
            ':next': event.version + 1,
            ':current': event.version,
          },
        },
      },
      onConflict: stale,
    });
  }
  return [...writes, ...deltaWrites(tallies)];
}
