import {
  type DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import { changeOfRecord } from '../../shared/repositories/webhook-stream';
import {
  catchUpChanges,
  dispatchChanges,
  type StreamedChange,
  streamOrder,
} from '../../shared/services/webhooks';
import type { CheckpointStore } from '../stream-checkpoints';
import { openIterator, shardList } from './shards';

/** A change-log item of the stream as the dispatcher takes it; undefined for every other item. */
function changeOf(r: StreamRecord): StreamedChange | undefined {
  const entry = changeOfRecord(r);
  return entry && { entry, order: streamOrder(r.dynamodb!.SequenceNumber!) };
}

export interface DispatcherOptions {
  streams: DynamoDBStreamsClient;
  streamArn: string;
  checkpoints: CheckpointStore;
  stopped: () => boolean;
  /** New deliveries exist: the deliverer looks now. */
  wake: () => void;
  log: (line: string) => void;
}

/**
 * The local dispatcher: every shard in order, from its checkpoint on, makes the deliveries of the
 * change-log items it reads. Returns its step: read what the stream has now, true when it found records.
 */
export function localDispatcher(o: DispatcherOptions): () => Promise<boolean> {
  const { streams, streamArn, checkpoints } = o;
  const shards = shardList(streams, streamArn);
  const iterators = new Map<string, string>();
  const finished = new Set<string>();
  /** The newest change-log position dispatched, kept on each checkpoint (a catch-up starts there). */
  let dispatched: string | undefined;
  let caughtUp = false;

  /**
   * Once, when the engine starts: the changes after the checkpoints, from the change log, in case the
   * stream does not give them (shared/services/webhooks/dispatch.ts); what the stream gives too is
   * dispatched once.
   */
  async function catchUp(): Promise<void> {
    const marks = (await Promise.all((await shards.get()).map((s) => checkpoints.get(s.ShardId!)))).filter(
      (c) => c !== undefined,
    );
    const newest = (a: string | undefined, b: string | undefined) => (a && b ? (a > b ? a : b) : (a ?? b));
    const sequence = marks.reduce((n, c) => (BigInt(c.sequence) > BigInt(n) ? c.sequence : n), '0');
    dispatched = marks.reduce<string | undefined>((p, c) => newest(p, c.position), undefined);
    const made = await catchUpChanges({ sequence, position: dispatched });
    if (made) {
      o.log(`webhooks: ${made} deliveries made from the change log after the last checkpoint`);
      o.wake();
    }
  }

  return async function readStream(): Promise<boolean> {
    if (!caughtUp) {
      await catchUp();
      caughtUp = true;
    }
    let found = false;
    for (const shard of await shards.get()) {
      const id = shard.ShardId!;
      if (finished.has(id)) continue;
      let iterator = iterators.get(id) ?? (await openIterator(streams, streamArn, checkpoints, shard));
      while (iterator && !o.stopped()) {
        let out;
        try {
          out = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 500 }));
        } catch (e) {
          if (!(e instanceof ExpiredIteratorException)) throw e;
          iterator = await openIterator(streams, streamArn, checkpoints, shard);
          continue;
        }
        const records = out.Records ?? [];
        const changes = records.map(changeOf).filter((c): c is StreamedChange => c !== undefined);
        if (changes.length) {
          await dispatchChanges(changes);
          o.wake();
          for (const { entry } of changes)
            if (!dispatched || entry.position > dispatched) dispatched = entry.position;
        }
        // Checkpointed only after the deliveries exist: a crash in between dispatches again, and
        // dispatching again makes nothing twice.
        if (records.length)
          await checkpoints.put(id, {
            sequence: records.at(-1)!.dynamodb!.SequenceNumber!,
            position: dispatched,
          });
        iterator = out.NextShardIterator;
        if (!records.length) break;
        found = true;
      }
      if (iterator) iterators.set(id, iterator);
      else {
        iterators.delete(id);
        finished.add(id);
        shards.forget(); // its children, if any, are listed now
      }
    }
    return found;
  };
}
