import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from './client';
import { keys } from './keys';

/** Next number of an atomic sequence: posts share one, terms another, as in WordPress. */
export async function nextId(sequence: 'post' | 'term' | 'webhook' | 'import'): Promise<number> {
  const out = await ddb.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.counter(sequence),
      UpdateExpression: 'ADD #v :one',
      ExpressionAttributeNames: { '#v': 'value' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(out.Attributes?.value);
}

/** `n` consecutive numbers of a sequence in one round trip (a series' occurrences, drawn before its write). */
export async function nextIds(sequence: 'post' | 'term', n: number): Promise<number[]> {
  const out = await ddb.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.counter(sequence),
      UpdateExpression: 'ADD #v :n',
      ExpressionAttributeNames: { '#v': 'value' },
      ExpressionAttributeValues: { ':n': n },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const last = Number(out.Attributes?.value);
  return Array.from({ length: n }, (_, i) => last - n + 1 + i);
}
