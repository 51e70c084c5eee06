import { ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureTable } from '../../local/dynamo';
import { signLocalToken } from '../../local/token';
import { invoke } from '../support/invoke';

/**
 * The log line of a failure is written before the handler answers: Lambda may freeze the process as
 * soon as the answer is out, and Powertools' Logger is loaded by `await import()` on the first line
 * (shared/http/logger.ts). Each case runs in a fresh module graph, as after a cold start, so the line
 * is also the one that loads the logger; the lines are read as soon as the handler's promise settles.
 */

let token: string;
beforeAll(async () => {
  await ensureTable(process.env.DYNAMODB_ENDPOINT!, process.env.TABLE_NAME!);
  token = await signLocalToken(process.env.AUTH_LOCAL_SECRET!, 'editor', 'user-editor');
});

let lines: string[];
/** A fresh module graph with logging on, stdout and stderr captured. */
async function coldStart() {
  vi.resetModules();
  vi.stubEnv('LOG_LEVEL', 'INFO');
  lines = [];
  const keep = (chunk: string | Uint8Array) => (lines.push(String(chunk)), true);
  vi.spyOn(process.stdout, 'write').mockImplementation(keep);
  vi.spyOn(process.stderr, 'write').mockImplementation(keep);
  return import('../../shared/db/client');
}
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** The JSON log lines written so far. */
const logged = () =>
  lines
    .flatMap((l) => l.split('\n'))
    .filter((l) => l.startsWith('{') && l.includes('"level"'))
    .map((l) => JSON.parse(l) as Record<string, any>);

const named = (name: string, message = name) => Object.assign(new Error(message), { name });

describe('a failure logged by respond.ts', () => {
  it.each([
    [
      'an unexpected error',
      () => new Error('boom with secret detail'),
      500,
      'ERROR',
      'unexpected failure',
      'boom with secret detail',
    ],
    [
      'a throttled table',
      () => new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: {} }),
      503,
      'WARN',
      'data store unavailable',
      'slow down',
    ],
    ['a timeout', () => named('TimeoutError', 'too slow'), 503, 'WARN', 'function timeout', 'too slow'],
  ])('%s is written before the answer', async (_what, error, status, level, message, detail) => {
    const { ddb } = await coldStart();
    vi.spyOn(ddb, 'send').mockRejectedValue(error() as never);
    const { handler } = await import('../../functions/categories/get-category');

    const res = await invoke(handler, 'GET', '/categories/5', { pathParameters: { id: '5' } });
    const written = logged();

    expect(res.status).toBe(status);
    expect(written).toMatchObject([
      { level, message, service: 'cal-events', requestId: 'gw-req-1', operation: 'getCategory' },
    ]);
    expect(written[0]!.error).toMatchObject({ message: detail });
    expect(res.text).not.toContain(detail);
  });

  it('answers the same when the line cannot be written', async () => {
    await coldStart();
    vi.doMock('../../shared/http/powertools-logger', () => {
      throw new Error('chunk missing');
    });
    const fallback = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const { ddb } = await import('../../shared/db/client');
      vi.spyOn(ddb, 'send').mockRejectedValue(new Error('boom') as never);
      const { handler } = await import('../../functions/categories/get-category');

      const res = await invoke(handler, 'GET', '/categories/5', { pathParameters: { id: '5' } });

      expect(res.status).toBe(500);
      expect(res.body).toMatchObject({ code: 'rest_internal_error', data: { request_id: 'lambda-req-1' } });
      expect(fallback).toHaveBeenCalledTimes(1);
      expect(fallback.mock.calls[0]![0]).toBe('ERROR unexpected failure');
    } finally {
      vi.doUnmock('../../shared/http/powertools-logger');
    }
  });
});

describe('a failed dispatch logged by dispatch.ts', () => {
  const rawPath = '/cal/events/v1/categories/';
  const event = {
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString: '',
    headers: { host: 'api.test', 'x-forwarded-proto': 'https' },
    isBase64Encoded: false,
    requestContext: {
      http: {
        method: 'GET',
        path: rawPath,
        protocol: 'HTTP/1.1',
        sourceIp: '127.0.0.1',
        userAgent: 'vitest',
      },
      requestId: 'gw-req-7',
      routeKey: '$default',
      stage: '$default',
    },
  } as unknown as APIGatewayProxyEventV2;

  it.each([
    [named('TooManyRequestsException'), 503, 'WARN', 'operation function throttled'],
    [named('FunctionError', 'crashed'), 500, 'ERROR', 'dispatch to the operation function failed'],
  ])('%s is written before the answer', async (error, status, level, message) => {
    await coldStart();
    const { handler, setInvoker } = await import('../../functions/system/no-route');
    setInvoker(() => Promise.reject(error));

    const res = (await handler(event, { awsRequestId: 'lambda-req-7' } as Context)) as Required<
      Pick<APIGatewayProxyStructuredResultV2, 'statusCode'>
    >;
    const written = logged();

    expect(res.statusCode).toBe(status);
    expect(written).toMatchObject([{ level, message, requestId: 'gw-req-7', operation: 'listCategories' }]);
    expect(written[0]!.error).toMatchObject({ message: error.message });
  });
});

describe('an idempotency record not saved, logged by keyed-run.ts', () => {
  it('is written before the create is answered', async () => {
    const { dynamo } = await coldStart();
    const send = dynamo.send.bind(dynamo) as (command: unknown) => Promise<unknown>;
    // Powertools stores the answer with UpdateItem once the create has landed: that write fails.
    vi.spyOn(dynamo, 'send').mockImplementation(((command: { constructor: { name: string } }) =>
      command.constructor.name === 'UpdateItemCommand'
        ? Promise.reject(new Error('store down'))
        : send(command)) as never);
    const { handler } = await import('../../functions/events/create-event');

    const res = await invoke(handler, 'POST', '/events', {
      token,
      body: { title: 'Logged', start_date: '2032-02-01 09:00:00', end_date: '2032-02-01 10:00:00' },
      headers: { 'idempotency-key': `log-${Date.now()}` },
      context: { awsRequestId: 'lambda-req-3', getRemainingTimeInMillis: () => 10_000 },
    });
    const written = logged();

    expect(res.status, res.text).toBe(201);
    expect(written).toMatchObject([
      {
        level: 'WARN',
        message: 'idempotency record not saved',
        requestId: 'gw-req-1',
        operation: 'createEvent',
      },
    ]);
  });
});
