import { DynamoDBClient, type DynamoDBClientConfig, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { TABLE } from './table';

/**
 * DynamoDB Local answers a TransactWriteItems before the transaction is committed: it queues the
 * SQLite COMMIT on its one database thread and replies at once (SQLiteDBAccess.commitTransaction), so
 * a DynamoDB Local killed within a few milliseconds of the answer loses an acknowledged write, its
 * change-log entry and stream records with it. Every other call waits for its turn on that thread; so,
 * against DynamoDB Local only, each successful transaction is followed by a GetItem of a key that never
 * exists, whose answer proves the COMMIT queued before it has run. The read goes through a client of its
 * own, so the calls counted on the shared client (tests, bench) are unchanged. DynamoDB commits before
 * it answers: deployed, nothing is added.
 */
export function waitForLocalCommits(client: DynamoDBClient, config: DynamoDBClientConfig): void {
  let reader: DynamoDBClient | undefined;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const out = await next(args);
      if (context.commandName !== 'TransactWriteItemsCommand') return out;
      const input = args.input as { TransactItems?: Array<Record<string, { TableName?: string }>> };
      const TableName = Object.values(input.TransactItems?.[0] ?? {})[0]?.TableName;
      if (!TableName) return out;
      reader ??= new DynamoDBClient(config);
      await reader.send(
        new GetItemCommand({
          TableName,
          Key: { [TABLE.partitionKey]: { S: '#commit' }, [TABLE.sortKey]: { S: '#commit' } },
        }),
      );
      return out;
    },
    { step: 'initialize', name: 'waitForLocalCommits' },
  );
}
