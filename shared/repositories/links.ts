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
 * status passes `visible`. Reads the end-date index from now on, projecting only what it needs.
 */
export async function upcomingLinkedIds(
  kind: 'VENUE' | 'ORGANIZER',
  nowUtc: string,
  visible: (event: { status: string; author: string }) => boolean,
): Promise<Set<number>> {
  const ix = TABLE.indexes.byEnd;
  const field = kind === 'VENUE' ? 'venues' : 'organizers';
  const ids = new Set<number>();
  for await (const item of queryItems({
    IndexName: ix.name,
    KeyConditionExpression: '#pk = :pk AND #sk >= :now',
    ExpressionAttributeNames: { '#pk': ix.partitionKey, '#sk': ix.sortKey, '#s': 'status', '#d': 'data', '#f': field },
    ExpressionAttributeValues: { ':pk': 'TYPE#event', ':now': nowUtc },
    ProjectionExpression: '#s, author, #d.#f',
  })) {
    if (!visible(item as { status: string; author: string })) continue;
    for (const id of ((item.data as Record<string, number[]> | undefined)?.[field] ?? [])) ids.add(Number(id));
  }
  return ids;
}
