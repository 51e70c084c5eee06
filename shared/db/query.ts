import { BatchGetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from './client';
import type { IndexName } from './table';

export type Item = Record<string, unknown>;

/** Pages through a query lazily, so callers stop reading as soon as they have what they need. */
export async function* queryItems(
  input: Omit<QueryCommandInput, 'TableName'> & { IndexName?: IndexName },
): AsyncGenerator<Item> {
  let start: Item | undefined;
  do {
    const page = await ddb.send(
      new QueryCommand({ ...input, TableName: tableName(), ExclusiveStartKey: start }),
    );
    for (const item of page.Items ?? []) yield item;
    start = page.LastEvaluatedKey;
  } while (start);
}

export async function collect<T>(items: AsyncIterable<T>, limit = Number.POSITIVE_INFINITY): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) {
    out.push(item);
    if (out.length >= limit) break;
  }
  return out;
}

/** Reads many items by key in rounds of 100, retrying unprocessed keys; result in key order. */
export async function batchGet(keyList: Array<{ pk: string; sk: string }>): Promise<Map<string, Item>> {
  const found = new Map<string, Item>();
  const unique = [...new Map(keyList.map((k) => [`${k.pk}|${k.sk}`, k])).values()];
  for (let i = 0; i < unique.length; i += 100) {
    let pending: Array<Record<string, unknown>> = unique.slice(i, i + 100);
    for (let attempt = 0; pending.length > 0 && attempt < 5; attempt++) {
      const out = await ddb.send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending } } }));
      for (const item of out.Responses?.[tableName()] ?? []) found.set(`${item.pk}|${item.sk}`, item);
      pending = (out.UnprocessedKeys?.[tableName()]?.Keys as Array<Record<string, unknown>>) ?? [];
    }
    if (pending.length > 0)
      throw Object.assign(new Error('BatchGet left keys unprocessed'), { name: 'ThrottlingException' });
  }
  return found;
}
