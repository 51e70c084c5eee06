import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from '../db/client';
import { keys, type PostType } from '../db/keys';

/** The fields every post (event, venue, organizer) has, whatever its type. */
export interface PostHead {
  id: number;
  type: PostType;
  status: string;
  author: string;
}

export async function getPostHead(id: number): Promise<PostHead | undefined> {
  const out = await ddb.send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.post(id),
      ProjectionExpression: 'id, #t, #s, author',
      ExpressionAttributeNames: { '#t': 'type', '#s': 'status' },
    }),
  );
  return out.Item as PostHead | undefined;
}
