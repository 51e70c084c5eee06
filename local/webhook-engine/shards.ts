import {
  DescribeStreamCommand,
  type DynamoDBStreamsClient,
  GetShardIteratorCommand,
  type Shard,
  TrimmedDataAccessException,
} from '@aws-sdk/client-dynamodb-streams';
import type { CheckpointStore } from '../stream-checkpoints';

/** The stream's shard list is read again after this long (or when a shard ends): shards change rarely. */
const SHARDS_TTL_MS = 10_000;

/** The shards of the local table's stream, oldest first (a parent before its children), kept a while. */
export function shardList(streams: DynamoDBStreamsClient, streamArn: string) {
  let known: { shards: Shard[]; at: number } | undefined;
  return {
    async get(): Promise<Shard[]> {
      if (known && Date.now() - known.at < SHARDS_TTL_MS) return known.shards;
      const all: Shard[] = [];
      let start: string | undefined;
      do {
        const out = await streams.send(
          new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: start }),
        );
        all.push(...(out.StreamDescription?.Shards ?? []));
        start = out.StreamDescription?.LastEvaluatedShardId;
      } while (start);
      all.sort((a, b) =>
        BigInt(a.SequenceNumberRange?.StartingSequenceNumber ?? 0) <
        BigInt(b.SequenceNumberRange?.StartingSequenceNumber ?? 0)
          ? -1
          : 1,
      );
      known = { shards: all, at: Date.now() };
      return all;
    },
    /** A shard ended: its children, if any, are listed at the next read. */
    forget(): void {
      known = undefined;
    },
  };
}

/** An iterator on `shard` after its checkpoint (from its oldest record without one). */
export async function openIterator(
  streams: DynamoDBStreamsClient,
  streamArn: string,
  checkpoints: CheckpointStore,
  shard: Shard,
): Promise<string | undefined> {
  const after = (await checkpoints.get(shard.ShardId!))?.sequence;
  const open = (type: 'AFTER_SEQUENCE_NUMBER' | 'TRIM_HORIZON') =>
    streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shard.ShardId,
        ShardIteratorType: type,
        SequenceNumber: type === 'AFTER_SEQUENCE_NUMBER' ? after : undefined,
      }),
    );
  try {
    return (await open(after ? 'AFTER_SEQUENCE_NUMBER' : 'TRIM_HORIZON')).ShardIterator;
  } catch (e) {
    // The checkpoint is older than what the stream keeps (24 h): read what it has.
    if (!(e instanceof TrimmedDataAccessException)) throw e;
    return (await open('TRIM_HORIZON')).ShardIterator;
  }
}
