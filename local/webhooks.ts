import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { localRegion } from './dynamo';
import type { Resolve } from '../shared/outbound/guarded-fetch';
import { checkpointStore } from './stream-checkpoints';
import { localDeliverer } from './webhook-engine/deliverer';
import { localDispatcher } from './webhook-engine/dispatcher';
import { loop, pauses } from './webhook-engine/pauses';

/**
 * The webhook engine of the local stack, in this process: the dispatcher on DynamoDB Local's stream of
 * the table (local/webhook-engine/dispatcher.ts), and the deliverer on the jobs in the table
 * (local/webhook-engine/deliverer.ts), each job under the deployed deliverer's time
 * (shared/contracts/background.ts). Both keep their state (the stream position after each batch in a
 * side table, local/stream-checkpoints.ts; the jobs in the table until they are done), so a stack
 * killed outright delivers what it owed when it starts again. Deployed, the same dispatcher and
 * deliverer run in Lambda (functions/webhook-engine/), with SQS between them.
 *
 * Idle, both loops look less and less often (up to `idleMs`); a write of this process (the local
 * gateway's handlers, local/write-signal.ts) wakes them at once, so an idle stack rests and a write's
 * deliveries still leave within milliseconds (local/webhook-engine/pauses.ts).
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
  const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: o.tableName }));
  const streamArn = Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`Table ${o.tableName} has no stream: webhooks cannot be dispatched.`);
  const checkpoints = await checkpointStore(dynamo, o.tableName);

  let stopped = false;
  const rest = pauses(pollMs);
  const readStream = localDispatcher({
    streams,
    streamArn,
    checkpoints,
    stopped: () => stopped,
    wake: rest.wake,
    log,
  });
  const deliverer = localDeliverer({
    concurrency: o.concurrency ?? 16,
    resolve: o.resolve,
    sleep: rest.sleep,
    pollMs,
    log,
  });
  const loops = { pauses: rest, pollMs, idleMs, stopped: () => stopped, log };
  const running = [loop('dispatcher', readStream, loops), loop('deliverer', deliverer.runDue, loops)];

  return {
    async stop() {
      stopped = true;
      rest.close();
      rest.wake();
      await Promise.all(running);
      await deliverer.settled();
      dynamo.destroy();
      streams.destroy();
    },
  };
}
