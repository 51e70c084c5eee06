import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { localRegion } from '../../local/dynamo';
import { keys } from '../../shared/db/keys';

/**
 * DynamoDB Local's stream of a table, read on from where the last read ended, as an event source
 * mapping reads it; and what the deployed dispatcher's mapping lets through (infra/webhook-engine.ts).
 */
export interface TableStream {
  /** The records written since the last call (from the oldest, the first time). */
  next: () => Promise<StreamRecord[]>;
  close: () => void;
}

export function tableStream(endpoint: string, tableName: string): TableStream {
  const config = {
    endpoint,
    region: localRegion(),
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  };
  const dynamo = new DynamoDBClient(config);
  const streams = new DynamoDBStreamsClient(config);
  const iterators = new Map<string, string | undefined>();
  return {
    async next() {
      const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: tableName }));
      const StreamArn = Table!.LatestStreamArn;
      const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn }));
      const records: StreamRecord[] = [];
      for (const { ShardId } of StreamDescription!.Shards ?? []) {
        let iterator = iterators.has(ShardId!)
          ? iterators.get(ShardId!)
          : (
              await streams.send(
                new GetShardIteratorCommand({ StreamArn, ShardId, ShardIteratorType: 'TRIM_HORIZON' }),
              )
            ).ShardIterator;
        while (iterator) {
          const out = await streams.send(new GetRecordsCommand({ ShardIterator: iterator }));
          records.push(...(out.Records ?? []));
          iterator = out.NextShardIterator;
          if (!out.Records?.length) break;
        }
        iterators.set(ShardId!, iterator);
      }
      return records;
    },
    close() {
      dynamo.destroy();
      streams.destroy();
    },
  };
}

export const pkOf = (r: StreamRecord) => r.dynamodb?.Keys?.pk?.S;

/** What the dispatcher's event source mapping lets through: new change-log items, new or re-put jobs. */
export const forDispatcher = (r: StreamRecord) =>
  (pkOf(r) === keys.changePartition && r.eventName === 'INSERT') ||
  (pkOf(r) === keys.jobPartition && (r.eventName === 'INSERT' || r.eventName === 'MODIFY'));

/** Records as Lambda hands them to the dispatcher. */
export const streamEvent = (records: StreamRecord[]) =>
  ({
    Records: records.map((r) => ({ ...r, eventSource: 'aws:dynamodb' })),
  }) as unknown as DynamoDBStreamEvent;
