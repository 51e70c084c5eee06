import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type AwsCall, startRecorder } from '../support/aws-call-recorder';
import { anEvent } from '../support/bodies';
import { eventually, startReceiver, verify } from '../support/webhook-receiver';

/**
 * The local stack at rest (issue 38): the gateway and its background parts (local/background.ts: the
 * webhook engine and the job runner, local/jobs.ts) as `npm start` runs them, in front of DynamoDB Local
 * through a pass-through that counts every request. After a write and its webhook delivery, the idle
 * stack writes nothing and reads a few times a second at most; its dispatcher once fed the stream it
 * read (its checkpoint, written into the table after every read, was the next read's record), about
 * 300 reads and writes a second for ever. Calls are counted, not timed; the bounds are generous.
 */
const recorder = await startRecorder(inject('dynamoEndpoint'));
// Before any module of the stack loads: the handlers' client and the engine's go through the recorder.
process.env.DYNAMODB_ENDPOINT = recorder.endpoint;
const { startStack, signToken } = await import('../support/stack');
const { startBackground } = await import('../../local/background');

/** Seconds the idle stack is watched for. */
const IDLE_S = 6;
/** At most this many DynamoDB requests a second, idle (about 2-3 are expected: each loop's slow poll). */
const MAX_CALLS_PER_S = 10;
/** At most this share of a core for this process (gateway, background, recorder and the test itself). */
const MAX_CORES = 0.25;

const WRITES = /:(PutItem|UpdateItem|DeleteItem|BatchWriteItem)$/;

let stack: Awaited<ReturnType<typeof startStack>>;
let background: Awaited<ReturnType<typeof startBackground>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  stack = await startStack();
  background = await startBackground({
    endpoint: recorder.endpoint,
    tableName: process.env.TABLE_NAME!,
    log: () => {},
  });
  receiver = await startReceiver();
});
afterAll(async () => {
  await background?.stop();
  await stack?.close();
  await receiver?.close();
  await recorder.close();
});

const tally = (calls: AwsCall[]) =>
  Object.entries(
    calls.reduce<Record<string, number>>((n, c) => ({ ...n, [c.action]: (n[c.action] ?? 0) + 1 }), {}),
  )
    .map(([action, n]) => `${action} ${n}`)
    .join(', ');

describe('the local stack at rest', () => {
  it('after a write and its delivery, issues almost no DynamoDB calls and uses little CPU', async () => {
    const token = await signToken('administrator');
    const hook = await stack.post(
      '/webhooks',
      { url: `${receiver.base}/idle`, events: ['event.*'] },
      { token },
    );
    expect(hook.status).toBe(201);
    receiver.secrets('/idle', hook.body.secret);
    const event = await stack.post('/events', anEvent({ status: 'publish' }), { token });
    expect(event.status).toBe(201);
    const [got] = await eventually(
      'the delivery of the new event',
      () => receiver.at('/idle').length > 0 && receiver.at('/idle'),
    );
    expect(() => verify(hook.body.secret, got!)).not.toThrow();
    // The delivery's bookkeeping (its attempt, the job's removal) has settled once the list says so.
    await eventually('the delivery to be recorded as delivered', async () => {
      const list = await stack.get(`/webhooks/${hook.body.id}/deliveries`, { token });
      return list.body.deliveries?.[0]?.status === 'delivered';
    });
    await new Promise((ok) => setTimeout(ok, 2_000));

    const from = recorder.calls.length;
    const cpu = process.cpuUsage();
    const started = performance.now();
    await new Promise((ok) => setTimeout(ok, IDLE_S * 1000));
    const used = process.cpuUsage(cpu);
    const seconds = (performance.now() - started) / 1000;
    const idle = recorder.calls.slice(from);

    const seen = `${idle.length} calls in ${seconds.toFixed(1)} s: ${tally(idle)}`;
    expect(
      idle.filter((c) => WRITES.test(c.action)),
      seen,
    ).toEqual([]);
    expect(idle.length / seconds, seen).toBeLessThan(MAX_CALLS_PER_S);
    const cores = (used.user + used.system) / 1e6 / seconds;
    expect(cores, `${cores.toFixed(3)} of a core; ${seen}`).toBeLessThan(MAX_CORES);
  });
});
