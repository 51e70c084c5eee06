import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { handler as getCategory } from '../../functions/categories/get-category';
import { ddb } from '../../shared/db/client';
import { invoke } from '../support/invoke';

/**
 * Throttling through the real SDK client (aws-sdk-client-mock replaces `send`, so it cannot show
 * this): the table's HTTP answers are replaced below the SDK, whose own retries (maxAttempts in
 * shared/db/client.ts) must run before the service gives up with 503 and Retry-After.
 */
/** What the SDK reads of an HTTP answer (the shape of @smithy/protocol-http's HttpResponse). */
interface HttpResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: Readable;
}
type Handler = { handle: (request: unknown) => Promise<{ response: HttpResponse }> };
const config = ddb.config as unknown as { requestHandler: Handler };
const original = config.requestHandler;
afterEach(() => {
  config.requestHandler = original;
});

const answer = (statusCode: number, body: unknown): HttpResponse => ({
  statusCode,
  headers: { 'content-type': 'application/x-amz-json-1.0' },
  body: Readable.from([Buffer.from(JSON.stringify(body))]),
});

const THROTTLED = {
  __type: 'com.amazonaws.dynamodb.v20120810#ThrottlingException',
  message: 'Rate of requests exceeds the allowed throughput (table cal-prod).',
};

/** Answers the first `failures` requests with `failure`, then an empty GetItem result. */
function table(failures: number, failure: () => HttpResponse) {
  const seen = { calls: 0 };
  config.requestHandler = {
    handle: async () => {
      seen.calls++;
      return { response: seen.calls <= failures ? failure() : answer(200, {}) };
    },
  };
  return seen;
}

const read = () => invoke(getCategory, 'GET', '/categories/5', { pathParameters: { id: '5' } });

describe('a throttled table, through the SDK', () => {
  it('is retried by the SDK: a throttle that passes is never seen by the caller', async () => {
    const seen = table(2, () => answer(400, THROTTLED));

    const res = await read();

    expect(seen.calls).toBe(3);
    expect(res.status).toBe(404); // the empty GetItem result: no such category
    expect(res.body.code).toBe('rest-category-not-found');
  });

  it('answers 503 with Retry-After once the SDK has spent its attempts, without internals', async () => {
    const seen = table(Infinity, () => answer(400, THROTTLED));

    const res = await read();

    expect(seen.calls).toBe(4);
    expect(res.status).toBe(503);
    expect(res.headers['Retry-After']).toMatch(/^\d+$/);
    expect(res.body).toEqual({
      code: 'rest_service_unavailable',
      message: expect.any(String),
      data: { status: 503 },
    });
    expect(res.text).not.toMatch(/cal-prod|Throttling|amazonaws/);
  });

  it('answers 503 for a table that keeps answering 500 (InternalServerError), also after retries', async () => {
    const seen = table(Infinity, () =>
      answer(500, {
        __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError',
        message: 'boom at node 7',
      }),
    );

    const res = await read();

    expect(seen.calls).toBe(4);
    expect(res.status).toBe(503);
    expect(res.text).not.toContain('node 7');
  });
});
