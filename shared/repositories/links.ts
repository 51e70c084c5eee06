import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from '../db/client';
import { keys, type LinkKind } from '../db/keys';

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
