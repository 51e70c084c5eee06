import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Context, DynamoDBStreamEvent, SQSEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { handler as deliver } from '../../functions/webhook-engine/deliver';
import { handler as dispatchHandler } from '../../functions/webhook-engine/dispatch';
import { WEBHOOK_QUEUE_URL_ENV } from '../../shared/config';
import { keys } from '../../shared/db/keys';
import type { JobRef } from '../../shared/repositories/webhook-deliveries';
import { SQS_MAX_DELAY_SECONDS } from '../../shared/repositories/webhook-job-queue';
import { STREAM_BATCH_RESERVE_MS } from '../../shared/services/webhooks/engine';
import { anEvent, type Rec } from '../support/bodies';
import { forDispatcher, pkOf, streamEvent, tableStream } from '../support/table-stream';
import { useStack } from '../support/use-stack';
import { type Receiver, startReceiver, verify } from '../support/webhook-receiver';

/**
 * The deployed webhook engine's two functions (functions/webhook-engine/), invoked as Lambda invokes
 * them: the dispatcher with DynamoDB stream events made of the records DynamoDB Local's stream of the
 * table really holds after writes through the API, the deliverer with SQS events made of the messages
 * the dispatcher sent, delivering to a real HTTP receiver. SQS alone is mocked: there is none locally.
 */
process.env[WEBHOOK_QUEUE_URL_ENV] = 'https://sqs.example/123456789012/deliveries';
process.env.CAL_WEBHOOK_RETRY_SCHEDULE = '0,1';

const { api, tokens } = await useStack({ tokens: { admin: 'administrator', editor: 'editor' } });
const asAdmin = { token: tokens.admin };
const asEditor = { token: tokens.editor };
const sqs = mockClient(SQSClient);

const stream = tableStream(process.env.DYNAMODB_ENDPOINT!, process.env.TABLE_NAME!);
const newStreamRecords = () => stream.next();

/** Lambda's context, with the time the invocation has left (a minute, the dispatcher's timeout). */
const lambdaContext = (remainingMs: () => number = () => 60_000) =>
  ({ getRemainingTimeInMillis: remainingMs }) as Context;
const dispatch = (event: DynamoDBStreamEvent, context = lambdaContext()) => dispatchHandler(event, context);

/** Runs the dispatcher on what the stream has now; returns its answer. */
async function dispatchNew() {
  return dispatch(streamEvent((await newStreamRecords()).filter(forDispatcher)));
}

// -------------------------------------------------------------------------------------------------
// The queue: the messages the functions sent, handed to the deliverer as SQS would.

interface Sent {
  job: JobRef;
  delay: number;
}
const sent = (): Sent[] =>
  sqs.commandCalls(SendMessageCommand).map((c) => ({
    job: JSON.parse(c.args[0].input.MessageBody!) as JobRef,
    delay: c.args[0].input.DelaySeconds!,
  }));
let messageIds = 0;
const sqsEvent = (jobs: JobRef[]) =>
  ({
    Records: jobs.map((job) => ({ messageId: `m${++messageIds}`, body: JSON.stringify(job) })),
  }) as unknown as SQSEvent;

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
  await newStreamRecords(); // the subscriptions and records of earlier tests are not this test's
});
afterAll(async () => {
  await receiver?.close();
  stream.close();
  sqs.restore();
});
beforeEach(() => {
  sqs.reset();
  sqs.on(SendMessageCommand).resolves({ MessageId: 'sent' });
});

const made: number[] = [];
async function subscribe(path: string): Promise<{ id: number; secret: string }> {
  const res = await api.post('/webhooks', { url: `${receiver.base}${path}`, events: ['event.*'] }, asAdmin);
  expect(res.status).toBe(201);
  made.push(res.body.id);
  receiver.secrets(path, res.body.secret);
  return res.body;
}
// Each test's changes go to its own subscription alone.
afterEach(async () => {
  for (const id of made.splice(0)) await api.del(`/webhooks/${id}`, asAdmin);
});
const deliveriesOf = async (id: number): Promise<Rec[]> =>
  (await api.get(`/webhooks/${id}/deliveries?per_page=100`, asAdmin)).body.deliveries;
/** Jobs the stream shows deleted from the table since the last read. */
const jobsRemoved = async () =>
  (await newStreamRecords()).filter((r) => pkOf(r) === keys.jobPartition && r.eventName === 'REMOVE');
/** Holds a job until it is due, as SQS holds its message for its delay. */
const untilDue = (job: JobRef) => new Promise((ok) => setTimeout(ok, Math.max(0, job.due_ms - Date.now())));

describe('the dispatcher on a DynamoDB stream event', () => {
  it("makes the deliveries of changes, then sends their jobs to SQS with each one's delay", async () => {
    const hook = await subscribe('/dispatched');
    const event = (await api.post('/events', anEvent({ status: 'publish' }), asEditor)).body;
    expect((await api.patch(`/events/${event.id}`, { title: 'Renamed' }, asEditor)).status).toBe(200);

    // The changes: two deliveries, their jobs written to the table (no message yet).
    expect(await dispatchNew()).toEqual({ batchItemFailures: [] });
    const pending = await deliveriesOf(hook.id);
    expect(pending.map((d) => [d.type, d.status]).sort()).toEqual([
      ['event.created', 'pending'],
      ['event.updated', 'pending'],
    ]);
    expect(sent()).toEqual([]);

    // The jobs, as the stream shows them next: one message each; the second of the record waits its turn.
    expect(await dispatchNew()).toEqual({ batchItemFailures: [] });
    const messages = sent();
    expect(messages).toHaveLength(2);
    expect(messages.map((m) => m.job.delivery).sort()).toEqual(pending.map((d) => d.id).sort());
    // The first is due now; the second waits behind it (a hand-over usually comes sooner).
    const [first, second] = [...messages].sort((a, b) => a.job.due_ms - b.job.due_ms) as [Sent, Sent];
    expect(first.delay).toBe(0);
    expect(second.job.due_ms).toBeGreaterThan(first.job.due_ms);
    // Its delay is what is left of that wait when the job is moved (none on a slow enough machine).
    expect(second.delay).toBeLessThanOrEqual(5);
    // Moved, not copied: the table keeps no job of them.
    expect(await jobsRemoved()).toHaveLength(2);

    // Delivered by the deliverer, the first first; its end hands the lane to the second through the stream.
    expect(await deliver(sqsEvent([first.job]))).toEqual({ batchItemFailures: [] });
    sqs.resetHistory();
    expect(await dispatchNew()).toEqual({ batchItemFailures: [] });
    const handOver = sent();
    expect(handOver.map((m) => [m.job.delivery, m.delay])).toEqual([[second.job.delivery, 0]]);
    expect(await deliver(sqsEvent([handOver[0]!.job]))).toEqual({ batchItemFailures: [] });

    const got = receiver.at('/dispatched');
    expect(got.map((r) => r.json.type)).toEqual(['event.created', 'event.updated']);
    for (const r of got) verify(hook.secret, r);
    expect(got.map((r) => r.json.data.id)).toEqual([event.id, event.id]);
    expect((await deliveriesOf(hook.id)).map((d) => d.status)).toEqual(['delivered', 'delivered']);
  });

  it('names the first job it could not send, which stays in the table to be read again', async () => {
    await subscribe('/unsent');
    await api.post('/events', anEvent({ status: 'publish' }), asEditor);
    await dispatchNew();
    const records = (await newStreamRecords()).filter(forDispatcher);
    expect(records.length).toBeGreaterThan(0);
    sqs.on(SendMessageCommand).rejects(new Error('SQS is down'));

    const answer = await dispatch(streamEvent(records));

    expect(answer.batchItemFailures).toEqual([{ itemIdentifier: records[0]!.dynamodb!.SequenceNumber }]);
    expect(await jobsRemoved()).toEqual([]);
    // Read again (Lambda retries from the record named), it goes through and leaves the table.
    sqs.on(SendMessageCommand).resolves({ MessageId: 'sent' });
    expect(await dispatch(streamEvent(records))).toEqual({ batchItemFailures: [] });
    expect(await jobsRemoved()).toHaveLength(records.length);
  });

  it('stops with its reserve of time left and names the next record, which a retry takes from there', async () => {
    const hook = await subscribe('/late');
    for (const title of ['One', 'Two', 'Three'])
      expect((await api.post('/events', anEvent({ status: 'publish', title }), asEditor)).status).toBe(201);
    const records = (await newStreamRecords()).filter(forDispatcher);
    const changes = records.filter((r) => pkOf(r) === keys.changePartition);
    expect(changes).toHaveLength(3);
    // Less than the reserve is left once the first change is done.
    const late = lambdaContext(() => STREAM_BATCH_RESERVE_MS - 1);

    const answer = await dispatch(streamEvent(records), late);

    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: changes[1]!.dynamodb!.SequenceNumber }] });
    expect(await deliveriesOf(hook.id)).toHaveLength(1);
    // Lambda hands the batch over again from the record named: the rest is done, the first not twice.
    const rest = records.filter(
      (r) => BigInt(r.dynamodb!.SequenceNumber!) >= BigInt(changes[1]!.dynamodb!.SequenceNumber!),
    );
    expect(await dispatch(streamEvent(rest))).toEqual({ batchItemFailures: [] });
    expect(await deliveriesOf(hook.id)).toHaveLength(3);
    // Their jobs, moved to the queue: the next test's batch starts clean.
    expect(await dispatchNew()).toEqual({ batchItemFailures: [] });
    expect(sent()).toHaveLength(3);
  });

  it('does the first record of a batch even when it starts late (a record is never skipped for time)', async () => {
    const hook = await subscribe('/first');
    await api.post('/events', anEvent({ status: 'publish' }), asEditor);
    const records = (await newStreamRecords()).filter(forDispatcher);

    expect(
      await dispatch(
        streamEvent(records),
        lambdaContext(() => 0),
      ),
    ).toEqual({ batchItemFailures: [] });
    expect(await deliveriesOf(hook.id)).toHaveLength(1);
    // Its job, moved to the queue: the next test's batch starts clean.
    expect(await dispatchNew()).toEqual({ batchItemFailures: [] });
  });
});

describe('the deliverer on an SQS event', () => {
  it('delivers to the receiver, retries through a delayed message, and reports only the jobs that could not run', async () => {
    const hook = await subscribe('/flaky');
    receiver.script('/flaky', [500, 200]);
    await api.post('/events', anEvent({ status: 'publish' }), asEditor);
    await dispatchNew();
    await dispatchNew();
    const [job] = sent().map((m) => m.job);
    sqs.resetHistory();
    // A job due in 20 minutes comes back to the deliverer early (SQS delays 15 at most) and is sent
    // again; here SQS refuses it, so that message alone is reported.
    const later: JobRef = { ...job!, due_ms: Date.now() + 20 * 60_000 };
    sqs.on(SendMessageCommand).callsFake((input: { MessageBody: string }) => {
      if ((JSON.parse(input.MessageBody) as JobRef).due_ms === later.due_ms) throw new Error('SQS is down');
      return { MessageId: 'sent' };
    });
    const batch = sqsEvent([job!, later]);

    const answer = await deliver(batch);

    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: batch.Records[1]!.messageId }] });
    // The receiver's 500 is the delivery's business, not a failed job: its next try is a new job.
    expect(receiver.at('/flaky')).toHaveLength(1);
    const [pending] = await deliveriesOf(hook.id);
    expect(pending).toMatchObject({ status: 'pending', attempts: [{ status: 500 }] });
    expect(await dispatchNew()).toEqual({ batchItemFailures: [] });
    const retry = sent().filter((m) => m.job.due_ms !== later.due_ms);
    expect(retry.map((m) => m.job.delivery)).toEqual([job!.delivery]);

    await untilDue(retry[0]!.job);
    expect(await deliver(sqsEvent([retry[0]!.job]))).toEqual({ batchItemFailures: [] });
    expect(receiver.at('/flaky')).toHaveLength(2);
    const [done] = await deliveriesOf(hook.id);
    expect(done).toMatchObject({ status: 'delivered' });
    expect(done!.attempts.map((a: Rec) => a.status)).toEqual([500, 200]);
  });

  it('sends a job due past 15 minutes back with the longest delay', async () => {
    const later: JobRef = { webhook: 1, delivery: 'msg_later', due_ms: Date.now() + 20 * 60_000 };

    expect(await deliver(sqsEvent([later]))).toEqual({ batchItemFailures: [] });

    expect(sent()).toEqual([{ job: later, delay: SQS_MAX_DELAY_SECONDS }]);
  });
});
