import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
  type Shard,
  TrimmedDataAccessException,
} from '@aws-sdk/client-dynamodb-streams';
import { localRegion } from './dynamo';
import type { Resolve } from '../shared/outbound/guarded-fetch';
import { deleteJob, dueJobs, type JobRef, putJob } from '../shared/repositories/webhook-deliveries';
import { changeOfRecord } from '../shared/repositories/webhook-stream';
import {
  catchUpChanges,
  dispatchChanges,
  type StreamedChange,
  streamOrder,
} from '../shared/services/webhooks';
import { runJob } from '../shared/services/webhooks/engine';
import { checkpointStore } from './stream-checkpoints';
import { onLocalWrite } from './write-signal';

/**
 * The webhook engine of the local stack, in this process: the dispatcher on DynamoDB Local's stream of
 * the table, and the deliverer on the jobs in the table. Both keep their state (the stream position
 * after each batch in a side table, local/stream-checkpoints.ts; the jobs in the table until they are
 * done), so a stack killed outright delivers what it owed when it starts again. Deployed, the same
 * dispatcher and deliverer run in Lambda (functions/webhook-engine/).
 *
 * Idle, both loops look less and less often (up to `idleMs`); a write of this process (the local
 * gateway's handlers, local/write-signal.ts) wakes them at once, so an idle stack rests and a write's
 * deliveries still leave within milliseconds.
 */

export interface WebhookEngineOptions {
  endpoint: string;
  tableName: string;
  /** Name resolution for deliveries (tests give their own); the system's otherwise. */
  resolve?: Resolve;
  /** How soon an engine that found nothing looks again (doubled after each empty look, up to idleMs). */
  pollMs?: number;
  /** The longest pause of an idle engine (what a write of another process may wait). */
  idleMs?: number;
  /** Jobs run at once (deliveries of one record still go one after the other). */
  concurrency?: number;
  log?: (line: string) => void;
}

export interface WebhookEngine {
  stop: () => Promise<void>;
}

const JOB_PAGE = 50;
/** A job whose run failed (the table busy, a bug) is tried again this much later, not in a tight loop. */
const JOB_ERROR_DELAY_MS = 5_000;
/** The stream's shard list is read again after this long (or when a shard ends): shards change rarely. */
const SHARDS_TTL_MS = 10_000;

/** A change-log item of the stream as the dispatcher takes it; undefined for every other item. */
function changeOf(r: StreamRecord): StreamedChange | undefined {
  const entry = changeOfRecord(r);
  return entry && { entry, order: streamOrder(r.dynamodb!.SequenceNumber!) };
}

export async function startWebhookEngine(o: WebhookEngineOptions): Promise<WebhookEngine> {
  const config = {
    endpoint: o.endpoint,
    region: localRegion(),
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  };
  const dynamo = new DynamoDBClient(config);
  const streams = new DynamoDBStreamsClient(config);
  const log = o.log ?? ((line: string) => console.error(line));
  const pollMs = o.pollMs ?? 100;
  const idleMs = Math.max(pollMs, o.idleMs ?? 1_000);
  const concurrency = o.concurrency ?? 16;
  const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: o.tableName }));
  const streamArn = Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`Table ${o.tableName} has no stream: webhooks cannot be dispatched.`);
  const checkpoints = await checkpointStore(dynamo, o.tableName);

  let stopped = false;
  interface Sleeper {
    since: number;
    done: (woken: boolean) => void;
    nudge: () => void;
  }
  const sleepers = new Set<Sleeper>();
  /** Pauses for `ms`; true when woken (or nudged) before. */
  const sleep = (ms: number) =>
    new Promise<boolean>((ok) => {
      let timer = setTimeout(() => sleeper.done(false), ms);
      const sleeper: Sleeper = {
        since: Date.now(),
        done: (woken) => {
          clearTimeout(timer);
          sleepers.delete(sleeper);
          ok(woken);
        },
        // No sooner than pollMs after the pause began: a stream of writes (an import) is read in
        // batches at most every pollMs, as before, not once per write.
        nudge: () => {
          clearTimeout(timer);
          timer = setTimeout(() => sleeper.done(true), Math.max(0, sleeper.since + pollMs - Date.now()));
        },
      };
      sleepers.add(sleeper);
    });
  /** New deliveries or stopping: the loops look now rather than after their pause. */
  const wake = () => [...sleepers].forEach((s) => s.done(true));
  /** Writes of this process so far: a loop that saw one while it worked does not back off. */
  let writes = 0;
  const unsubscribe = onLocalWrite(() => {
    writes++;
    [...sleepers].forEach((s) => s.nudge());
  });

  // -------------------------------------------------------------------------------------------------
  // The dispatcher: every shard in order (a parent before its children), from its checkpoint on.

  const iterators = new Map<string, string>();
  const finished = new Set<string>();
  /** The newest change-log position dispatched, kept on each checkpoint (a catch-up starts there). */
  let dispatched: string | undefined;
  let caughtUp = false;

  async function openIterator(shard: Shard): Promise<string | undefined> {
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

  let known: { shards: Shard[]; at: number } | undefined;
  async function shards(): Promise<Shard[]> {
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
  }

  /**
   * Once, when the engine starts: the changes after the checkpoints, from the change log, in case the
   * stream does not give them (shared/services/webhooks/dispatch.ts); what the stream gives too is
   * dispatched once.
   */
  async function catchUp(): Promise<void> {
    const marks = (await Promise.all((await shards()).map((s) => checkpoints.get(s.ShardId!)))).filter(
      (c) => c !== undefined,
    );
    const newest = (a: string | undefined, b: string | undefined) => (a && b ? (a > b ? a : b) : (a ?? b));
    const sequence = marks.reduce((n, c) => (BigInt(c.sequence) > BigInt(n) ? c.sequence : n), '0');
    dispatched = marks.reduce<string | undefined>((p, c) => newest(p, c.position), undefined);
    const made = await catchUpChanges({ sequence, position: dispatched });
    if (made) {
      log(`webhooks: ${made} deliveries made from the change log after the last checkpoint`);
      wake();
    }
  }

  /** Reads what the stream has now; true when it found records. */
  async function readStream(): Promise<boolean> {
    if (!caughtUp) {
      await catchUp();
      caughtUp = true;
    }
    let found = false;
    for (const shard of await shards()) {
      const id = shard.ShardId!;
      if (finished.has(id)) continue;
      let iterator = iterators.get(id) ?? (await openIterator(shard));
      while (iterator && !stopped) {
        let out;
        try {
          out = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 500 }));
        } catch (e) {
          if (!(e instanceof ExpiredIteratorException)) throw e;
          iterator = await openIterator(shard);
          continue;
        }
        const records = out.Records ?? [];
        const changes = records.map(changeOf).filter((c): c is StreamedChange => c !== undefined);
        if (changes.length) {
          await dispatchChanges(changes);
          wake();
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
        known = undefined; // its children, if any, are listed now
      }
    }
    return found;
  }

  // -------------------------------------------------------------------------------------------------
  // The deliverer: due jobs, up to `concurrency` at once; a job is deleted once it has run.

  async function runOne(job: JobRef): Promise<void> {
    try {
      await runJob(job, { resolve: o.resolve });
    } catch (e) {
      log(`webhooks: job of delivery ${job.delivery} failed (${(e as Error).message}); trying again shortly`);
      await putJob({ ...job, due_ms: Date.now() + JOB_ERROR_DELAY_MS }).catch(() => {});
    }
    await deleteJob(job);
  }

  /** The jobs being run, by key: a page read meanwhile lists them again until they are deleted. */
  const inFlight = new Map<string, Promise<void>>();
  const jobKey = (j: JobRef) => `${j.due_ms}#${j.webhook}#${j.delivery}`;

  /**
   * Starts due jobs in the free slots, then waits for a slot to come free or for new jobs: a job that
   * ends lets the next due one start at once, rather than after the rest of its page. True while jobs run (read
   * again at once), false when none does (the loop pauses until it is woken).
   */
  async function runDue(): Promise<boolean> {
    if (inFlight.size < concurrency) {
      const jobs = (await dueJobs(Date.now(), JOB_PAGE)).filter((j) => !inFlight.has(jobKey(j)));
      for (const job of jobs.slice(0, concurrency - inFlight.size)) {
        const key = jobKey(job);
        inFlight.set(
          key,
          runOne(job)
            .catch((e: Error) => log(`webhooks: job of delivery ${job.delivery} stumbled (${e.message})`))
            .finally(() => inFlight.delete(key)),
        );
      }
    }
    if (!inFlight.size) return false;
    // A slot coming free, new jobs (wake) or the poll, whichever is first: a long attempt holds no
    // later job back.
    await Promise.race([...inFlight.values(), sleep(pollMs)]);
    return true;
  }

  /** Runs `step` again at once while it is busy; idle, after pauses that double up to idleMs. */
  const loop = async (name: string, step: () => Promise<boolean>) => {
    let pause = pollMs;
    while (!stopped) {
      const before = writes;
      let busy = false;
      try {
        busy = await step();
      } catch (e) {
        if (!stopped) log(`webhooks: the ${name} stumbled (${(e as Error).message}); going on`);
      }
      if (busy) pause = pollMs;
      else if (!stopped) {
        const wrote = writes !== before;
        const woken = await sleep(wrote ? pollMs : pause);
        pause = woken || wrote ? pollMs : Math.min(pause * 2, idleMs);
      }
    }
  };
  const running = [loop('dispatcher', readStream), loop('deliverer', runDue)];

  return {
    async stop() {
      stopped = true;
      unsubscribe();
      wake();
      await Promise.all(running);
      await Promise.all(inFlight.values());
      dynamo.destroy();
      streams.destroy();
    },
  };
}
