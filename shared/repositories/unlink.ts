import { DomainError } from '../domain/errors';
import type { EventData, EventRecord } from '../domain/event-record';
import type { LinkKind } from '../domain/records';
import { tableName } from '../db/client';
import { keys } from '../db/keys';
import type { Write } from '../db/transact';
import { addTallies, type Deltas, deltaWrites } from './event-writes';
import { eventIdsLinkedTo } from './links';
import { getPosts } from './posts';

/** Most events one record can be unlinked from in a single transaction (two writes each, plus tallies). */
const MAX_EVENTS = 30;

/**
 * The writes that unlink a term, venue or organizer from every event, for the transaction that trashes
 * or deletes it: each event's list loses the ID (under the event's version condition), the link items
 * go, and the record's own tallies drop those events.
 */
export async function unlinkWrites(kind: LinkKind, targetId: number, stale: () => Error): Promise<Write[]> {
  const eventIds = await eventIdsLinkedTo(kind, targetId);
  if (eventIds.length === 0) return [];
  if (eventIds.length > MAX_EVENTS)
    throw new DomainError(
      'conflict',
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
