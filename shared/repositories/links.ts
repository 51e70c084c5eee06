import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from '../db/client';
import { keys, type LinkKind } from '../db/keys';
import { queryItems } from '../db/query';
import { TABLE } from '../db/table';

/** IDs an event links to (terms, venues or organizers), in link order. */
export async function linkedIds(eventId: number, kind: LinkKind): Promise<number[]> {
  const out = await ddb.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.post(eventId).pk, ':prefix': keys.linkPrefix(kind) },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).map((i) => Number(i.targetId));
}

/**
 * Venue or organizer IDs linked to events that have not ended yet (running events count) and whose
 * status passes `visible`. The end index holds event-local wall times, so it is read from 14 hours
 * before now (the largest UTC offset) and the UTC end decides.
 */
export async function upcomingLinkedIds(
  kind: 'VENUE' | 'ORGANIZER',
  nowInput: Date | string,
  visible: (event: { status: string; author: string }) => boolean,
): Promise<Set<number>> {
  const ix = TABLE.indexes.byEnd;
  const field = kind === 'VENUE' ? 'venues' : 'organizers';
  const wallUtc = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');
  // Accepts a Date or a UTC wall time / ISO string.
  const now =
    typeof nowInput === 'string' ? new Date(`${nowInput.replace(' ', 'T').replace(/Z?$/, 'Z')}`) : nowInput;
  const nowUtc = wallUtc(now);
  const ids = new Set<number>();
  for await (const item of queryItems({
    IndexName: ix.name,
    KeyConditionExpression: '#pk = :pk AND #sk >= :low',
    ExpressionAttributeNames: {
      '#pk': ix.partitionKey,
      '#sk': ix.sortKey,
      '#s': 'status',
      '#d': 'data',
      '#f': field,
      '#e': 'utcEnd',
    },
    ExpressionAttributeValues: {
      ':pk': 'TYPE#event',
      ':low': wallUtc(new Date(now.getTime() - 14 * 3600_000)),
    },
    ProjectionExpression: '#s, author, #d.#f, #d.#e',
  })) {
    const data = item.data as { utcEnd?: string } & Record<string, number[]>;
    if (!data?.utcEnd || data.utcEnd < nowUtc || item.status === 'trash') continue;
    if (!visible(item as { status: string; author: string })) continue;
    for (const id of data[field] ?? []) ids.add(Number(id));
  }
  return ids;
}
