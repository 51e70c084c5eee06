import {
  CreateTableCommand,
  DeleteItemCommand,
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  ResourceInUseException,
} from '@aws-sdk/client-dynamodb';

/**
 * The local dispatcher's place in each shard of the table's stream, kept in a side table of its own
 * (`<table>-stream-checkpoints`, no stream) in the same DynamoDB Local: so it survives a restart exactly
 * as the table does (on disk with `npm start`, gone with it in memory), and writing it feeds no stream.
 * It used to live in the table itself (`WHSTREAM / <shard>`): each checkpoint was a stream record that
 * the next read returned and checkpointed again, about 300 reads and writes a second for ever (issue 38).
 * Nothing that reads the stream may write what the stream carries, except what it exists to make.
 */
export interface Checkpoint {
  /** The last stream record dispatched. */
  sequence: string;
  /** The newest change-log position dispatched (where a catch-up from the change log starts). */
  position?: string;
}

export const checkpointTableName = (tableName: string) => `${tableName}-stream-checkpoints`;

/** The legacy partition of checkpoints in the table: read once, moved, and deleted. */
const LEGACY_PK = 'WHSTREAM';

export interface CheckpointStore {
  get(shardId: string): Promise<Checkpoint | undefined>;
  put(shardId: string, c: Checkpoint): Promise<void>;
}

export async function checkpointStore(client: DynamoDBClient, tableName: string): Promise<CheckpointStore> {
  const TableName = checkpointTableName(tableName);
  let created = true;
  try {
    await client.send(
      new CreateTableCommand({
        TableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'shard', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'shard', KeyType: 'HASH' }],
      }),
    );
  } catch (e) {
    if (!(e instanceof ResourceInUseException)) throw e;
    created = false;
  }
  const put = async (shard: string, c: Checkpoint) => {
    await client.send(
      new PutItemCommand({
        TableName,
        Item: {
          shard: { S: shard },
          sequence: { S: c.sequence },
          ...(c.position ? { position: { S: c.position } } : {}),
        },
      }),
    );
  };
  // A table of an older stack keeps its checkpoints in the table: moved here once, so no change is
  // dispatched again from the oldest record after the upgrade.
  if (created) {
    const legacy = await client.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': { S: LEGACY_PK } },
        ConsistentRead: true,
      }),
    );
    for (const item of legacy.Items ?? []) {
      await put(item.sk!.S!, {
        sequence: item.sequence?.S ?? String(item.sequence?.N),
        position: item.position?.S,
      });
      await client.send(new DeleteItemCommand({ TableName: tableName, Key: { pk: item.pk!, sk: item.sk! } }));
    }
  }
  return {
    async get(shard) {
      const { Item } = await client.send(
        new GetItemCommand({ TableName, Key: { shard: { S: shard } }, ConsistentRead: true }),
      );
      return Item && { sequence: Item.sequence!.S!, position: Item.position?.S };
    },
    put,
  };
}
