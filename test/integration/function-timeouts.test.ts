import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TIMED_OUT, underLimits } from '../../local/gateway';
import { noRouteTimeoutSeconds } from '../../shared/contracts/function-limits';
import { operations } from '../../shared/contracts';
import { useStack } from '../support/use-stack';

/**
 * Lambda's limits in the local stack (issue 38): a handler that outlives its function's time answers
 * what API Gateway answers deployed (500 `{"message":"Internal Server Error"}`), not whatever it
 * answers later (fake timers drive the function's and the integration's times), and POST /imports,
 * whose feed never answers, answers within its function's time (CAL_LOCAL_FUNCTION_TIMEOUT_MS, the
 * tests' setting, shortens it).
 */
const { api, tokens } = await useStack({ tokens: { admin: 'administrator' } });

let feed: Server;
let feedUrl: string;
beforeAll(async () => {
  // Accepts the connection, never answers.
  feed = createServer(() => {});
  await new Promise<void>((ok) => feed.listen(0, '127.0.0.1', ok));
  feedUrl = `http://127.0.0.1:${(feed.address() as AddressInfo).port}/feed.ics`;
});
afterAll(async () => {
  vi.unstubAllEnvs();
  feed.closeAllConnections();
  await new Promise((ok) => feed.close(ok));
});

describe("the local gateway applies the functions' time", () => {
  it('answers a handler that outlives its time as API Gateway does: 500 Internal Server Error', async () => {
    vi.stubEnv('CAL_LOCAL_FUNCTION_TIMEOUT_MS', '');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      // A 10 s function whose handler never answers: Lambda ends it at 10 s, before the integration's 30.
      const answer = underLimits(new Promise(() => {}), 10);
      await vi.advanceTimersByTimeAsync(10_000);
      const r = await answer;
      expect(r.statusCode).toBe(TIMED_OUT.function.status);
      expect(JSON.parse(String(r.body))).toEqual({ message: 'Internal Server Error' });
    } finally {
      vi.useRealTimers();
      vi.unstubAllEnvs();
    }
  });

  it("answers POST /imports of a feed that stalls past the function's time within that time: 202, not a 500", async () => {
    // The import's fetch deadline comes from the function's remaining time (issue 38): the request
    // answers 202 with the import to follow before Lambda (here the gateway) would end it.
    vi.stubEnv('CAL_LOCAL_FUNCTION_TIMEOUT_MS', '12000');
    const res = await fetch(`${api.base}/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: feedUrl }),
    });
    vi.unstubAllEnvs();
    expect(res.status).toBe(202);
    expect(res.headers.get('location')).toMatch(/\/imports\/\d+$/);
  });

  it("answers 503 Service Unavailable when the integration's 30 s run out first", async () => {
    // The deployed times, not the tests' longer one.
    vi.stubEnv('CAL_LOCAL_FUNCTION_TIMEOUT_MS', '');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const answer = underLimits(new Promise(() => {}), 45);
      await vi.advanceTimersByTimeAsync(30_000);
      const r = await answer;
      expect(r.statusCode).toBe(TIMED_OUT.integration.status);
      expect(JSON.parse(String(r.body))).toEqual({ message: 'Service Unavailable' });
    } finally {
      vi.useRealTimers();
      vi.unstubAllEnvs();
    }
  });

  it('gives noRoute the longest time of the functions it forwards to', () => {
    const longest = Math.max(...operations.map((o) => o.timeoutSeconds ?? 10));
    expect(noRouteTimeoutSeconds()).toBe(longest);
    expect(longest).toBeGreaterThan(10);
  });
});
