import { randomUUID } from 'node:crypto';
import { ScanCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handler as createEvent } from '../../functions/events/create-event';
import { ensureTable } from '../../local/dynamo';
import { signLocalToken } from '../../local/token';
import { ddb, tableName } from '../../shared/db/client';
import { invoke } from '../support/invoke';

/**
 * Finding 1 of issue 10: a create that runs out of time may still land. The function answers 503
 * rest_timeout (never a 500), telling the client that a retry with the same Idempotency-Key is safe,
 * and it is: the retry never creates a second record, whether the first write landed or not. Runs the
 * real handler against the embedded DynamoDB; only the commit is slowed down, by a spy on the client.
 */

let token: string;
beforeAll(async () => {
  await ensureTable(process.env.DYNAMODB_ENDPOINT!, process.env.TABLE_NAME!);
  token = await signLocalToken(process.env.AUTH_LOCAL_SECRET!, 'editor', 'user-editor');
});

interface Signal {
  promise: Promise<void>;
  resolve: () => void;
}
const signal = (): Signal => {
  let resolve!: () => void;
  const promise = new Promise<void>((ok) => (resolve = ok));
  return { promise, resolve };
};

/** How the next transaction behaves: held until released, then written or not, then answered or not. */
interface Gate {
  /** Whether the held transaction is sent to the table once released. */
  write: boolean;
  /** Whether the function hears back (false: it stays frozen, as a Lambda stopped at its timeout). */
  answer: boolean;
  entered: Signal;
  release: Signal;
  done: Signal;
}
let gate: Gate | undefined;
const hold = (write: boolean, answer: boolean): Gate =>
  (gate = {
    write,
    answer,
    entered: signal(),
    release: signal(),
    done: signal(),
  });

const realSend = ddb.send.bind(ddb) as (command: unknown) => Promise<unknown>;
const spy = vi.spyOn(ddb, 'send').mockImplementation((async (command: unknown) => {
  const g = gate;
  if (!g || !(command instanceof TransactWriteCommand)) return realSend(command);
  gate = undefined;
  g.entered.resolve();
  await g.release.promise;
  if (g.write) await realSend(command);
  g.done.resolve();
  if (!g.answer) return new Promise(() => {});
  return {};
}) as never);
afterAll(() => spy.mockRestore());

const context = (ms: number, id = randomUUID()): Partial<Context> => ({
  awsRequestId: id,
  getRemainingTimeInMillis: () => ms,
});

const body = (title: string) => ({
  title,
  start_date: '2032-01-10 09:00:00',
  end_date: '2032-01-10 10:00:00',
});

const post = (title: string, key: string, ms = 10_000) =>
  invoke(createEvent, 'POST', '/events', {
    body: body(title),
    token,
    headers: { 'idempotency-key': key },
    context: context(ms),
  });

/** Events stored with this title (read straight from the table). */
async function stored(title: string): Promise<number[]> {
  const out = await ddb.send(
    new ScanCommand({
      TableName: tableName(),
      FilterExpression: 'sk = :post AND title = :t',
      ExpressionAttributeValues: { ':post': 'POST', ':t': title },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).map((i) => Number(i.id));
}

const pause = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

describe('a create that times out, retried with the same Idempotency-Key', () => {
  it('answers the timeout with 503 rest_timeout saying a retry with the key is safe, and the retry does not duplicate', async () => {
    const title = `Timed out ${randomUUID()}`;
    const key = randomUUID();
    const g = hold(true, false);

    const first = await post(title, key, 400);
    expect(first.status).toBe(503);
    expect(first.body.code).toBe('rest_timeout');
    expect(first.body.message).toMatch(/same Idempotency-Key is safe/);
    expect(first.headers['Retry-After']).toBe('1');

    // The write lands after the answer, as a transaction already sent does.
    g.release.resolve();
    await g.done.promise;
    expect(await stored(title)).toHaveLength(1);

    // Once the first attempt's time is over, the retry runs, finds the guard and answers its record.
    await pause(450);
    const retry = await post(title, key);
    expect(retry.status).toBe(201);
    expect(retry.body.title).toBe(title);
    expect(await stored(title)).toEqual([retry.body.id]);
    expect(retry.headers.Location).toBe(retry.body.rest_url);

    // From then on the stored answer is replayed.
    const again = await post(title, key);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(retry.body);
    expect(again.headers['Idempotent-Replayed']).toBe('true');
    expect(await stored(title)).toHaveLength(1);
  });

  it('creates exactly once when the timed-out attempt never wrote', async () => {
    const title = `Never written ${randomUUID()}`;
    const key = randomUUID();
    const g = hold(false, false);

    const first = await post(title, key, 400);
    expect(first.status).toBe(503);
    g.release.resolve();
    await g.done.promise;
    expect(await stored(title)).toHaveLength(0);

    await pause(450);
    const retry = await post(title, key);
    expect(retry.status).toBe(201);
    expect(await stored(title)).toEqual([retry.body.id]);
  });

  it('answers a retry while the first attempt still runs with 409 rest_idempotency_in_progress and Retry-After', async () => {
    const title = `Still running ${randomUUID()}`;
    const key = randomUUID();
    const g = hold(true, true);

    const first = post(title, key);
    await g.entered.promise;
    const early = await post(title, key);
    expect(early.status).toBe(409);
    expect(early.body).toEqual({
      code: 'rest_idempotency_in_progress',
      message: expect.stringContaining('in progress'),
      data: { status: 409 },
    });
    expect(early.headers['Retry-After']).toBe('1');

    g.release.resolve();
    const done = await first;
    expect(done.status).toBe(201);
    const later = await post(title, key);
    expect(later.status).toBe(201);
    expect(later.body.id).toBe(done.body.id);
    expect(await stored(title)).toEqual([done.body.id]);
  });

  it('never duplicates when the in-progress record was lost and a second attempt races the first', async () => {
    const title = `Racing ${randomUUID()}`;
    const key = randomUUID();
    // The first attempt is held inside its commit; its in-progress record expires at once (1 ms).
    const g = hold(true, true);
    const first = post(title, key, 1);
    await g.entered.promise;
    await pause(20);
    const second = await post(title, key);
    expect(second.status).toBe(201);

    g.release.resolve();
    const late = await first;
    // The first attempt's transaction fails on the guard and answers the record the second one made.
    expect([201, 503]).toContain(late.status);
    if (late.status === 201) expect(late.body.id).toBe(second.body.id);
    expect(await stored(title)).toEqual([second.body.id]);
  });
});
