import {
  BatchGetCommand,
  BatchWriteCommand,
  type DynamoDBDocumentClient,
  QueryCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from './client';
import type { Key } from './keys';
import { TABLE } from './table';

export type Item = Record<string, unknown>;

type IndexKey = keyof typeof TABLE.indexes;

export type PageSize = number | (() => number);

export interface IndexQuery {
  /** A global secondary index, or the table itself when absent. */
  index?: IndexKey;
  partition: string;
  /** Sort-key condition: a prefix, an inclusive range, at least `from`, after `after` or before `before` (cursors). */
  sort?:
    | { prefix: string }
    | { between: [string, string] }
    | { from: string }
    | { after: string }
    | { before: string };
  descending?: boolean;
  /**
   * Items per round trip; without it DynamoDB returns pages of up to 1 MB. A function is asked before
   * each page (a reader that learns after the first page how many rows it needs).
   */
  pageSize?: PageSize;
  /** Attributes to read (names are escaped); all when absent. */
  attributes?: string[];
  consistent?: boolean;
}

/**
 * The one query helper: reads a partition of the table or of an index, lazily, page by page, so
 * callers stop reading (and paying) as soon as they have what they need.
 */
export async function* queryIndex(q: IndexQuery): AsyncGenerator<Item> {
  const ix = q.index ? TABLE.indexes[q.index] : undefined;
  const pkName = ix?.partitionKey ?? TABLE.partitionKey;
  const skName = ix?.sortKey ?? TABLE.sortKey;
  const names: Record<string, string> = { '#pk': pkName };
  const values: Record<string, unknown> = { ':pk': q.partition };
  let condition = '#pk = :pk';
  if (q.sort) {
    names['#sk'] = skName;
    if ('prefix' in q.sort) {
      condition += ' AND begins_with(#sk, :a)';
      values[':a'] = q.sort.prefix;
    } else if ('between' in q.sort) {
      // An empty range holds nothing; DynamoDB would reject it (ValidationException) rather than say so.
      if (q.sort.between[0] > q.sort.between[1]) return;
      condition += ' AND #sk BETWEEN :a AND :b';
      values[':a'] = q.sort.between[0];
      values[':b'] = q.sort.between[1];
    } else if ('from' in q.sort) {
      condition += ' AND #sk >= :a';
      values[':a'] = q.sort.from;
    } else if ('after' in q.sort) {
      condition += ' AND #sk > :a';
      values[':a'] = q.sort.after;
    } else {
      condition += ' AND #sk < :a';
      values[':a'] = q.sort.before;
    }
  }
  let projection: string | undefined;
  if (q.attributes) {
    projection = q.attributes
      .map((path) =>
        path
          .split('.')
          .map((part) => {
            const alias = `#p_${part.replace(/\W/g, '_')}`;
            names[alias] = part;
            return alias;
          })
          .join('.'),
      )
      .join(', ');
  }
  const input: QueryCommandInput = {
    TableName: tableName(),
    IndexName: ix?.name,
    KeyConditionExpression: condition,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ScanIndexForward: !q.descending,
    ProjectionExpression: projection,
    ConsistentRead: q.consistent,
  };
  let start: Item | undefined;
  do {
    const Limit = typeof q.pageSize === 'function' ? q.pageSize() : q.pageSize;
    const page = await ddb.send(new QueryCommand({ ...input, Limit, ExclusiveStartKey: start }));
    for (const item of page.Items ?? []) yield item;
    start = page.LastEvaluatedKey;
  } while (start);
}

export async function collect<T>(items: AsyncIterable<T>, limit = Number.POSITIVE_INFINITY): Promise<T[]> {
  const out: T[] = [];
  if (limit <= 0) return out;
  for await (const item of items) {
    out.push(item);
    if (out.length >= limit) break;
  }
  return out;
}

/** Requests one batchGet keeps in flight at once. */
const BATCH_GET_PARALLEL = 8;

/** Reads many items by key, 100 per request, up to 8 requests at once, retrying unprocessed keys. */
export async function batchGet(keyList: Key[], consistent = false): Promise<Map<string, Item>> {
  const found = new Map<string, Item>();
  const unique = [...new Map(keyList.map((k) => [`${k.pk}|${k.sk}`, k])).values()];
  const chunks: Key[][] = [];
  for (let i = 0; i < unique.length; i += 100) chunks.push(unique.slice(i, i + 100));
  const read = async (chunk: Key[]) => {
    let pending: Array<Record<string, unknown>> = chunk;
    for (let attempt = 0; pending.length > 0 && attempt < 5; attempt++) {
      const out = await ddb.send(
        new BatchGetCommand({
          RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: consistent || undefined } },
        }),
      );
      for (const item of out.Responses?.[tableName()] ?? []) found.set(`${item.pk}|${item.sk}`, item);
      pending = (out.UnprocessedKeys?.[tableName()]?.Keys as Array<Record<string, unknown>>) ?? [];
    }
    if (pending.length > 0)
      throw Object.assign(new Error('BatchGet left keys unprocessed'), { name: 'ThrottlingException' });
  };
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) await read(chunks[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(BATCH_GET_PARALLEL, chunks.length) }, worker));
  return found;
}

export const itemKey = (k: Key) => `${k.pk}|${k.sk}`;

/** One request of a BatchWriteItem: an item to put, or the key of one to delete. */
export type BatchWrite = { put: Item } | { delete: Key };

/** Tries of one round of a batchWrite before it gives up (DynamoDB left items unprocessed each time). */
const BATCH_WRITE_TRIES = 8;

/**
 * Puts and deletes outside a transaction (rebuilds, tally and search-index upkeep), in rounds of 25,
 * retrying what DynamoDB leaves unprocessed; deleting a missing item is fine. Gives up with a
 * ThrottlingException-named error (which callers and clients treat as "try again later"). `client` is
 * the shared one but for the bench's bulk path, whose writes must pass by the shared one's middleware.
 */
export async function batchWrite(writes: BatchWrite[], client: DynamoDBDocumentClient = ddb): Promise<void> {
  for (let i = 0; i < writes.length; i += 25) {
    let pending: Array<Record<string, unknown>> = writes
      .slice(i, i + 25)
      .map((w) => ('put' in w ? { PutRequest: { Item: w.put } } : { DeleteRequest: { Key: w.delete } }));
    for (let attempt = 0; pending.length > 0 && attempt < BATCH_WRITE_TRIES; attempt++) {
      const out = await client.send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
      pending = (out.UnprocessedItems?.[tableName()] as Array<Record<string, unknown>> | undefined) ?? [];
    }
    if (pending.length > 0)
      throw Object.assign(
        new Error(
          `BatchWrite left ${pending.length} items unprocessed ${BATCH_WRITE_TRIES} times: try again later`,
        ),
        { name: 'ThrottlingException' },
      );
  }
}

/** Deletes items by key (see batchWrite). */
export const batchDelete = (keyList: Key[]) => batchWrite(keyList.map((k) => ({ delete: k })));

/** Puts whole items (see batchWrite). */
export const batchPut = (items: Item[]) => batchWrite(items.map((put) => ({ put })));
