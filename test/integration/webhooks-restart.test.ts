import { mkdtempSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anEvent, type Rec } from '../support/bodies';
import { type LocalStack, localStacks } from '../support/local-stacks';
import { eventually, type Receiver, startReceiver, verify } from '../support/webhook-receiver';

/**
 * The local stack (`npm start`, data on disk) killed outright while it owes deliveries, and started
 * again on the same data: every change is delivered, signed, in order per record. The receiver fails
 * (slowly) until the restart, so deliveries are pending, some in flight, when the stack dies, and the
 * stack dies right after acknowledging the last write: DynamoDB Local answers a transaction before it
 * commits it, so this write was lost until the local client waited for the commit
 * (shared/db/local-commit.ts).
 */
const PATH = '/restart';

const dataDir = mkdtempSync(join(tmpdir(), 'cal-webhooks-restart-'));
const stacks = localStacks(dataDir);
let receiver: Receiver;
/** Until the restart the receiver answers 500, a little late (an attempt may be in flight at the kill). */
let healthy = false;

afterAll(async () => {
  stacks.cleanup();
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

type Started = LocalStack;

const start = () =>
  stacks.start({
    role: 'administrator',
    subject: 'user-webhooks-restart',
    env: {
      // Enough tries to outlast the restart, a few seconds apart; an attempt cut by the kill waits out its
      // lease (the timeout and 20 s).
      CAL_WEBHOOK_RETRY_SCHEDULE: '0,1,2,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3',
      CAL_WEBHOOK_TIMEOUT_MS: '2000',
    },
  });

const call = (s: Started, method: string, path: string, body?: unknown) => s.call(method, path, body);

let hook: { id: number; secret: string };
/** Each event's changes, in the order they were made: [id, type][]. */
const made: Array<[number, string]> = [];
let first: Started;
let second: Started;

describe('webhooks of a local stack killed outright and started again', () => {
  beforeAll(async () => {
    receiver = await startReceiver();
    receiver.script(PATH, [
      (res: ServerResponse) =>
        healthy ? res.writeHead(200).end() : setTimeout(() => res.writeHead(500).end(), 300),
    ]);
    first = await start();
    const created = await call(first, 'POST', '/webhooks', {
      url: `${receiver.base}${PATH}`,
      events: ['event.*'],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    hook = created.body as typeof hook;
    receiver.secrets(PATH, hook.secret);
    // Two events, each created and updated twice: six changes, acknowledged one after the other.
    for (let e = 0; e < 2; e++) {
      const event = await call(first, 'POST', '/events', anEvent({ status: 'publish' }));
      expect(event.status).toBe(201);
      made.push([event.body.id, 'event.created']);
      // The engine is at work (failing) before the rest is written.
      if (e === 0) await eventually('a failed attempt', () => receiver.at(PATH).length >= 1);
      for (const title of ['Second', 'Third']) {
        expect((await call(first, 'PATCH', `/events/${event.body.id}`, { title })).status).toBe(200);
        made.push([event.body.id, 'event.updated']);
      }
    }
    // Killed right after the last write was acknowledged, owing every delivery.
    await first.killOutright();
    healthy = true;
    second = await start();
  }, 600_000);

  it('delivers every change after the restart, signed, in order per record', async () => {
    let list: Rec[] = [];
    const delivered = await eventually(
      'every delivery to be delivered',
      async () => {
        list = (await call(second, 'GET', `/webhooks/${hook.id}/deliveries?per_page=50`)).body.deliveries;
        return list.length === made.length && list.every((d) => d.status === 'delivered') && list;
      },
      300_000,
    ).catch(async (e: Error) => {
      const seen = list.map((d) => `${d.id} ${d.type} ${d.status} ${d.attempts.length}`).join('\n');
      const changes = await call(second, 'GET', '/changes?per_page=50');
      throw new Error(
        `${e.message}; ${made.length} changes made, the change feed: ${JSON.stringify(changes.body)}; deliveries:\n${seen}\n${first.output()}\n---\n${second.output()}`,
      );
    });
    expect(delivered).toHaveLength(6);
    const got = receiver.at(PATH);
    for (const r of got) expect(() => verify(hook.secret, r)).not.toThrow();
    for (const id of new Set(made.map(([record]) => record))) {
      const mine = got.filter((r) => r.json.data.id === id);
      // Every attempt of one delivery comes before any of the next one of its record (at least once: repeats).
      const ids = mine.map((r) => String(r.headers['webhook-id']));
      expect(ids).toEqual([...ids].sort());
      const types = [...new Map(mine.map((r) => [r.headers['webhook-id'], r.json.type])).values()];
      expect(types).toEqual(made.filter(([record]) => record === id).map(([, type]) => type));
    }
  }, 400_000);
});
