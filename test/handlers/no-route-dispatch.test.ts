import {
  InvokeCommand,
  LambdaClient,
  ResourceNotFoundException,
  ServiceException,
  TooManyRequestsException,
} from '@aws-sdk/client-lambda';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../functions/system/no-route';
import { operations } from '../../shared/contracts';
import { OPERATION_FUNCTION_PREFIX_ENV } from '../../shared/http/dispatch';

/**
 * The deployed path of a trailing slash (decisions §1): API Gateway sends `/events/` to `$default`,
 * whose function invokes the function of `/events` (Lambda Invoke, RequestResponse) with the event API
 * Gateway would have built for `/events`, and returns its result unchanged. Lambda is aws-sdk-client-mock.
 */
const FUNCTIONS = Object.fromEntries(
  operations.map((op) => [op.operationId, `CalEvents-dev-${op.operationId}`]),
);
process.env[OPERATION_FUNCTION_PREFIX_ENV] = 'CalEvents-dev-';

const lambda = mockClient(LambdaClient);
beforeEach(() => lambda.reset());
afterAll(() => lambda.restore());

const ROOT = '/cal/events/v1';
const CONTEXT = { awsRequestId: 'lambda-req-9', getRemainingTimeInMillis: () => 9_000 } as unknown as Context;

/** The event API Gateway sends to the `$default` route: no route key of ours, no path parameters. */
function defaultRouteEvent(
  method: string,
  path: string,
  o: { query?: string; body?: string; headers?: Record<string, string> } = {},
): APIGatewayProxyEventV2 {
  const rawPath = `${ROOT}${path}`;
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString: o.query ?? '',
    cookies: ['a=1'],
    headers: { host: 'api.test', 'x-forwarded-proto': 'https', ...o.headers },
    body: o.body,
    isBase64Encoded: false,
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc123',
      domainName: 'api.test',
      domainPrefix: 'api',
      http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '203.0.113.9', userAgent: 'vitest' },
      requestId: 'gw-req-7',
      routeKey: '$default',
      stage: '$default',
      time: '01/Jun/2026:12:00:00 +0000',
      timeEpoch: 1_780_315_200_000,
    },
  };
}

const encode = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));

/** What a function answered, as Invoke returns it. */
const answered = (result: unknown, functionError?: string) =>
  ({ StatusCode: 200, Payload: encode(result), FunctionError: functionError }) as never;

const RESULT: APIGatewayProxyStructuredResultV2 = {
  statusCode: 200,
  headers: {
    'Content-Type': 'application/json; charset=UTF-8',
    'X-Cal-Total': '3',
    'X-Cal-TotalPages': '1',
    'X-Cal-API-Version': 'v1',
    'X-Cal-API-Root': 'https://api.test/cal/events/v1/',
  },
  cookies: ['seen=1'],
  body: JSON.stringify([{ id: 1 }]),
};

/** The one Invoke sent, with its payload parsed. */
function sentInvoke() {
  const calls = lambda.commandCalls(InvokeCommand);
  expect(calls).toHaveLength(1);
  const input = calls[0]!.args[0].input;
  return {
    input,
    event: JSON.parse(new TextDecoder().decode(input.Payload as Uint8Array)) as APIGatewayProxyEventV2,
  };
}

describe('dispatching a trailing slash by Lambda Invoke', () => {
  it.each([
    ['GET', '/events/', 'listEvents', `GET ${ROOT}/events`, undefined],
    ['POST', '/events/', 'createEvent', `POST ${ROOT}/events`, undefined],
    ['GET', '/events/12/', 'getEvent', `GET ${ROOT}/events/{id}`, { id: '12' }],
    ['PATCH', '/events/12/', 'updateEvent', `PATCH ${ROOT}/events/{id}`, { id: '12' }],
    [
      'DELETE',
      '/venues/by-slug/blue-note/',
      'deleteVenueBySlug',
      `DELETE ${ROOT}/venues/by-slug/{slug}`,
      { slug: 'blue-note' },
    ],
    ['GET', '/', 'getNamespaceIndex', `GET ${ROOT}`, undefined],
    ['GET', '/doc/', 'getDocumentation', `GET ${ROOT}/doc`, undefined],
  ])('%s %s invokes %s with the unslashed event', async (method, path, operationId, routeKey, params) => {
    lambda.on(InvokeCommand).resolves(answered(RESULT));
    const event = defaultRouteEvent(method, path, {
      query: 'per_page=2&page=1',
      body: '{"title":"x"}',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
    });

    const result = await handler(event, CONTEXT);

    const { input, event: sent } = sentInvoke();
    expect(input.FunctionName).toBe(FUNCTIONS[operationId]);
    expect(input.InvocationType).toBe('RequestResponse');
    const unslashed = `${ROOT}${path}`.slice(0, -1);
    expect(sent.rawPath).toBe(unslashed);
    expect(sent.routeKey).toBe(routeKey);
    expect(sent.requestContext.routeKey).toBe(routeKey);
    expect(sent.requestContext.http.path).toBe(unslashed);
    expect(sent.pathParameters).toEqual(params);
    if (!params) expect(sent).not.toHaveProperty('pathParameters');
    // Everything else is the caller's request, untouched.
    const { rawPath: _a, routeKey: _b, requestContext: _c, ...rest } = event;
    expect(sent).toMatchObject(rest);
    expect(sent.requestContext).toEqual({
      ...event.requestContext,
      routeKey,
      http: { ...event.requestContext.http, path: unslashed },
    });
    expect(result).toEqual(RESULT);
  });

  it('passes any answer of the function through unchanged, errors included', async () => {
    const conflict = {
      statusCode: 409,
      headers: { 'Content-Type': 'application/json; charset=UTF-8', 'X-Cal-API-Version': 'v1' },
      body: '{"code":"rest_conflict","message":"m","data":{"status":409}}',
      isBase64Encoded: false,
    };
    lambda.on(InvokeCommand).resolves(answered(conflict));

    const result = await handler(defaultRouteEvent('PATCH', '/tags/3/'), CONTEXT);

    expect(result).toEqual(conflict);
  });

  it('keeps an encoded slug as API Gateway would pass it', async () => {
    lambda.on(InvokeCommand).resolves(answered(RESULT));

    await handler(defaultRouteEvent('GET', '/events/by-slug/caf%C3%A9-night/'), CONTEXT);

    expect(sentInvoke().event.pathParameters).toEqual({ slug: 'caf%C3%A9-night' });
  });
});

describe('failures of the dispatch itself', () => {
  const errorBody = (result: APIGatewayProxyStructuredResultV2) => JSON.parse(String(result.body));

  it('answers Invoke throttling with 503 and Retry-After', async () => {
    lambda.on(InvokeCommand).rejects(
      new TooManyRequestsException({
        message: 'Rate Exceeded.',
        $metadata: {},
        Reason: 'ReservedFunctionConcurrentInvocationLimitExceeded',
        retryAfterSeconds: '4',
      }),
    );

    const result = await handler(defaultRouteEvent('GET', '/events/'), CONTEXT);

    expect(result.statusCode).toBe(503);
    expect(result.headers).toMatchObject({
      'Retry-After': '4',
      'X-Cal-API-Version': 'v1',
      'X-Cal-API-Root': 'https://api.test/cal/events/v1/',
    });
    expect(errorBody(result)).toEqual({
      code: 'rest_service_unavailable',
      message: 'The service is busy; retry shortly.',
      data: { status: 503 },
    });
  });

  it('defaults Retry-After to 1 second when Lambda gives none', async () => {
    lambda
      .on(InvokeCommand)
      .rejects(new TooManyRequestsException({ message: 'Rate Exceeded.', $metadata: {} }));

    const result = await handler(defaultRouteEvent('POST', '/events/'), CONTEXT);

    expect(result.statusCode).toBe(503);
    expect(result.headers).toMatchObject({ 'Retry-After': '1' });
  });

  it('answers a FunctionError with 500 rest_internal_error and the request id, leaking nothing', async () => {
    lambda.on(InvokeCommand).resolves(
      answered(
        {
          errorType: 'Runtime.UnhandledPromiseRejection',
          errorMessage: 'secret-table-name exploded',
          trace: ['at secretFunction (/var/task/index.mjs:1:1)'],
        },
        'Unhandled',
      ),
    );

    const result = await handler(defaultRouteEvent('GET', '/events/5/'), CONTEXT);

    expect(result.statusCode).toBe(500);
    expect(errorBody(result)).toEqual({
      code: 'rest_internal_error',
      message: 'An unexpected error occurred.',
      data: { status: 500, request_id: 'lambda-req-9' },
    });
    expect(result.headers).toMatchObject({ 'X-Cal-API-Version': 'v1' });
    expect(String(result.body)).not.toMatch(/secret|Runtime|var\/task/);
  });

  it.each([
    [
      'a missing function',
      new ResourceNotFoundException({ message: 'Function not found: arn:aws:lambda:secret', $metadata: {} }),
    ],
    ['a Lambda service error', new ServiceException({ message: 'secret internals', $metadata: {} })],
    ['a network failure', Object.assign(new Error('connect ECONNREFUSED secret'), { name: 'TimeoutError' })],
  ])('answers %s with 500 rest_internal_error', async (_label, error) => {
    lambda.on(InvokeCommand).rejects(error);

    const result = await handler(defaultRouteEvent('DELETE', '/events/5/'), CONTEXT);

    expect(result.statusCode).toBe(500);
    expect(errorBody(result)).toEqual({
      code: 'rest_internal_error',
      message: 'An unexpected error occurred.',
      data: { status: 500, request_id: 'lambda-req-9' },
    });
    expect(String(result.body)).not.toContain('secret');
  });

  it('answers a payload that is not a response with 500', async () => {
    lambda
      .on(InvokeCommand)
      .resolves({ StatusCode: 200, Payload: new TextEncoder().encode('not json') } as never);

    const result = await handler(defaultRouteEvent('GET', '/tags/'), CONTEXT);

    expect(result.statusCode).toBe(500);
    expect(errorBody(result).code).toBe('rest_internal_error');
  });
});

describe('what is not dispatched', () => {
  it.each([
    ['an unknown path with a slash', 'GET', '/nope/', 404],
    ['an unknown path without one', 'GET', '/nope', 404],
    ['a path outside the namespace', 'GET', '/../v2/events/', 404],
    ['a double slash', 'GET', '/events//', 404],
    ['a known path with a slash and another method', 'DELETE', '/events/', 405],
    ['the namespace root with a slash and another method', 'PUT', '/', 405],
  ])('%s: %s %s → %i rest_no_route, no Invoke', async (_label, method, path, status) => {
    const event = defaultRouteEvent(method, path);
    if (path.startsWith('/..')) {
      event.rawPath = '/cal/events/v2/events/';
      event.requestContext.http.path = event.rawPath;
    }

    const result = await handler(event, CONTEXT);

    expect(result.statusCode).toBe(status);
    expect(JSON.parse(String(result.body)).code).toBe('rest_no_route');
    if (status === 405) expect(result.headers).toHaveProperty('Allow');
    expect(lambda.commandCalls(InvokeCommand)).toHaveLength(0);
  });
});
