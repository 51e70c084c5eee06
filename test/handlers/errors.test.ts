import { ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler as createCategory } from '../../functions/categories/create-category';
import { handler as deleteCategory } from '../../functions/categories/delete-category';
import { handler as getCategory } from '../../functions/categories/get-category';
import { handler as listCategories } from '../../functions/categories/list-categories';
import { handler as updateCategory } from '../../functions/categories/update-category';
import { handler as createTag } from '../../functions/tags/create-tag';
import { signLocalToken } from '../../local/token';
import { logger } from '../../shared/http/logger';
import { invoke } from '../support/invoke';
import { cancelWhere, type ItemMatch, sentItems } from '../support/transactions';
import { storedTerm } from '../support/stored-term';

/**
 * The error envelope for failures a real table will not produce on demand: throttling, unexpected
 * errors and cancelled transactions, with DynamoDB replaced by aws-sdk-client-mock. The handlers are
 * called directly with the API Gateway (payload 2.0) event the gateway would build.
 */
const ddb = mockClient(DynamoDBDocumentClient);
let token: string;

beforeAll(async () => {
  token = await signLocalToken(process.env.AUTH_LOCAL_SECRET!, 'editor', 'user-editor');
});
beforeEach(() => {
  ddb.reset();
  // An unmatched command resolves undefined; answer every command with an empty result by default.
  ddb.onAnyCommand().resolves({});
  ddb.on(UpdateCommand).resolves({ Attributes: { value: 42 } });
  ddb.on(QueryCommand).resolves({ Items: [] });
});
afterEach(() => vi.restoreAllMocks());
afterAll(() => ddb.restore());

type Handler = (e: APIGatewayProxyEventV2, c: Context) => Promise<APIGatewayProxyStructuredResultV2>;

interface CallOptions {
  body?: unknown;
  id?: number;
  query?: string;
  auth?: boolean;
  context?: Partial<Context>;
}

const call = (fn: unknown, method: string, path: string, o: CallOptions = {}) =>
  invoke(fn, method, path, {
    body: o.body,
    query: o.query,
    token: o.auth === false ? undefined : token,
    pathParameters: o.id === undefined ? undefined : { id: String(o.id) },
    context: o.context,
  });

/** Items of the term transactions, by key: the cancellation reasons name them wherever they sit. */
const NAME_GUARD: ItemMatch = { pk: /^TERMNAME#/, op: 'Put' };
const SLUG_GUARD: ItemMatch = { pk: /^SLUG#/, op: 'Put' };
const FAILED = 'ConditionalCheckFailed';

const named = (name: string, message = 'Rate of requests exceeds the allowed throughput.') =>
  Object.assign(new Error(message), { name });

describe('a throttled or unavailable table', () => {
  it.each([
    [
      'ProvisionedThroughputExceededException',
      () => new ProvisionedThroughputExceededException({ message: 'Throughput exceeded', $metadata: {} }),
    ],
    ['ThrottlingException', () => named('ThrottlingException')],
    ['RequestLimitExceeded', () => named('RequestLimitExceeded')],
    ['TransactionInProgressException', () => named('TransactionInProgressException')],
  ])(
    'answers a read failing with %s with 503, Retry-After and rest_service_unavailable',
    async (_name, error) => {
      ddb.on(GetCommand).rejects(error());

      const res = await call(getCategory, 'GET', '/categories/5', { id: 5 });

      expect(res.status).toBe(503);
      expect(res.headers['Retry-After']).toMatch(/^\d+$/);
      expect(res.body).toEqual({
        code: 'rest_service_unavailable',
        message: expect.any(String),
        data: { status: 503 },
      });
    },
  );

  it('does not pass the data store message on', async () => {
    ddb.on(GetCommand).rejects(named('ThrottlingException', 'table cal-events-prod throttled in eu-west-1'));

    const res = await call(getCategory, 'GET', '/categories/5', { id: 5 });

    expect(res.text).not.toContain('cal-events-prod');
  });

  it('answers a throttled list with 503', async () => {
    ddb.on(QueryCommand).rejects(named('ProvisionedThroughputExceededException'));

    const res = await call(listCategories, 'GET', '/categories', { auth: false });

    expect(res.status).toBe(503);
    expect(res.headers['Retry-After']).toBeDefined();
  });

  it('answers a write whose ID sequence is throttled with 503 and writes nothing', async () => {
    ddb.on(UpdateCommand).rejects(named('ThrottlingException'));

    const res = await call(createCategory, 'POST', '/categories', { body: { name: 'Music' } });

    expect(res.status).toBe(503);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it.each(['ThrottlingError', 'ProvisionedThroughputExceeded', 'TransactionConflict'])(
    'answers a transaction cancelled for %s with 503, not 500',
    async (code) => {
      ddb.on(TransactWriteCommand).callsFake(cancelWhere({ pk: 'TERM#42', op: 'Put' }, code));

      const res = await call(createCategory, 'POST', '/categories', { body: { name: 'Music' } });

      expect(res.status).toBe(503);
      expect(res.headers['Retry-After']).toBeDefined();
      expect(res.body.code).toBe('rest_service_unavailable');
    },
  );

  it('carries the API headers on a 503', async () => {
    ddb.on(GetCommand).rejects(named('ThrottlingException'));

    const res = await call(getCategory, 'GET', '/categories/5', { id: 5 });

    expect(res.headers['X-Cal-API-Version']).toBe('v1');
    expect(res.headers['X-Cal-API-Root']).toBe('https://api.test/cal/events/v1/');
  });
});

describe('an unexpected failure', () => {
  it('answers 500 rest_internal_error with the request ID', async () => {
    ddb.on(GetCommand).rejects(new Error('boom with secret detail'));

    const res = await call(getCategory, 'GET', '/categories/5', { id: 5 });

    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      code: 'rest_internal_error',
      message: expect.any(String),
      data: { status: 500, request_id: 'lambda-req-1' },
    });
  });

  it('keeps the error message and stack out of the response', async () => {
    ddb.on(GetCommand).rejects(new Error('boom with secret detail'));

    const res = await call(getCategory, 'GET', '/categories/5', { id: 5 });

    expect(res.text).not.toContain('boom with secret detail');
    expect(res.text).not.toMatch(/at .*\.ts:\d+/);
  });

  it('writes the detail to the log instead', async () => {
    const logged = vi.spyOn(logger, 'error').mockResolvedValue(undefined);
    ddb.on(GetCommand).rejects(new Error('boom with secret detail'));

    await call(getCategory, 'GET', '/categories/5', { id: 5 });

    expect(logged).toHaveBeenCalledTimes(1);
    expect(logged).toHaveBeenCalledWith(expect.any(String), {
      error: expect.objectContaining({ message: 'boom with secret detail' }),
    });
  });

  it('falls back to the gateway request ID without a Lambda context', async () => {
    ddb.on(GetCommand).rejects(new Error('boom'));

    const res = await call(getCategory, 'GET', '/categories/5', { id: 5, context: {} });

    expect(res.body.data.request_id).toBe('gw-req-1');
  });

  it('answers 500 for a write that fails unexpectedly', async () => {
    ddb
      .on(TransactWriteCommand)
      .rejects(new TypeError("Cannot read properties of undefined (reading 'secret')"));

    const res = await call(createCategory, 'POST', '/categories', { body: { name: 'Music' } });

    expect(res.status).toBe(500);
    expect(res.body.code).toBe('rest_internal_error');
    expect(res.text).not.toContain('secret');
  });

  it('answers 500 for a transaction cancelled for no reason it knows', async () => {
    ddb.on(TransactWriteCommand).callsFake(cancelWhere(NAME_GUARD, 'ValidationError'));

    const res = await call(createCategory, 'POST', '/categories', { body: { name: 'Music' } });

    expect(res.status).toBe(500);
    expect(res.text).not.toContain('Transaction cancelled');
  });
});

describe('cancelled transactions on create', () => {
  it('answers a lost name guard with 400 term_exists naming the term that holds it', async () => {
    ddb.on(TransactWriteCommand).callsFake(cancelWhere(NAME_GUARD, FAILED));
    ddb.on(GetCommand).resolves({ Item: { pk: 'TERMNAME#tribe_events_cat#music', sk: 'GUARD', id: 7 } });

    const res = await call(createCategory, 'POST', '/categories', { body: { name: 'Music' } });

    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'term_exists',
      message: expect.any(String),
      data: { status: 400, term_id: 7 },
    });
  });

  it('reads the name guard of the right taxonomy, by the name in lower case', async () => {
    ddb.on(TransactWriteCommand).callsFake(cancelWhere(NAME_GUARD, FAILED));
    ddb.on(GetCommand).resolves({ Item: { id: 9 } });

    await call(createTag, 'POST', '/tags', { body: { name: 'Late Night' } });

    const reads = ddb.commandCalls(GetCommand).map((c) => c.args[0].input.Key);
    expect(reads).toContainEqual({ pk: 'TERMNAME#post_tag#late night', sk: 'GUARD' });
  });

  it('answers a tag name taken concurrently with term_exists too', async () => {
    ddb.on(TransactWriteCommand).callsFake(cancelWhere(NAME_GUARD, FAILED));
    ddb.on(GetCommand).resolves({ Item: { id: 11 } });

    const res = await call(createTag, 'POST', '/tags', { body: { name: 'Outdoor' } });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'term_exists', data: { term_id: 11 } });
  });

  it('moves on to the next slug when the slug guard is taken first', async () => {
    // The loser draws its next suffix from the slug's counter (started above the taken `music`).
    ddb
      .on(UpdateCommand, { Key: { pk: 'SLUGSEQ#tribe_events_cat#music', sk: 'SEQ' } })
      .resolves({ Attributes: { n: 2 } });
    ddb.on(TransactWriteCommand).callsFakeOnce(cancelWhere(SLUG_GUARD, FAILED)).resolves({});

    const res = await call(createCategory, 'POST', '/categories', { body: { name: 'Music' } });

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: 42, slug: 'music-2' });
    expect(res.headers.Location).toBe('https://api.test/cal/events/v1/categories/42');
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(2);
  });

  it('answers a parent deleted while the child is created with 400 naming parent', async () => {
    ddb.on(QueryCommand).resolves({ Items: [storedTerm(3)] });
    ddb.on(TransactWriteCommand).callsFake(cancelWhere({ pk: 'TERM#3', op: 'ConditionCheck' }, FAILED));

    const res = await call(createCategory, 'POST', '/categories', { body: { name: 'Jazz', parent: 3 } });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { parent: expect.any(String) } },
    });
  });
});

describe('cancelled transactions on update and delete', () => {
  it('answers an update that loses a version race with 409 rest_conflict', async () => {
    ddb.on(GetCommand).resolves({ Item: storedTerm(5) });
    ddb.on(TransactWriteCommand).callsFake(cancelWhere({ pk: 'TERM#5', op: 'Update' }, FAILED));

    const res = await call(updateCategory, 'PATCH', '/categories/5', { id: 5, body: { description: 'new' } });

    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      code: 'rest_conflict',
      message: 'The category was changed by another request at the same time; retry.',
      data: { status: 409 },
    });
  });

  it('writes the update under the version it read', async () => {
    ddb.on(GetCommand).resolves({ Item: storedTerm(5) });

    const res = await call(updateCategory, 'PATCH', '/categories/5', { id: 5, body: { description: 'new' } });

    expect(res.status).toBe(200);
    const update = sentItems(ddb, { pk: 'TERM#5', op: 'Update' })[0]!.Update!;
    // Under the version read, and only while no permanent delete has begun (decisions §6).
    expect(update.ConditionExpression).toBe('version = :v AND attribute_not_exists(deleting)');
    expect(update.ExpressionAttributeValues).toMatchObject({ ':v': 3, ':next': 4 });
  });

  it('answers a rename onto a name taken concurrently with term_exists', async () => {
    ddb.on(GetCommand, { Key: { pk: 'TERM#5', sk: 'TERM' } }).resolves({ Item: storedTerm(5) });
    ddb
      .on(GetCommand, { Key: { pk: 'TERMNAME#tribe_events_cat#renamed', sk: 'GUARD' } })
      .resolves({ Item: { id: 8 } });
    ddb
      .on(TransactWriteCommand)
      .callsFake(cancelWhere({ pk: 'TERMNAME#tribe_events_cat#renamed', op: 'Put' }, FAILED));

    const res = await call(updateCategory, 'PATCH', '/categories/5', { id: 5, body: { name: 'Renamed' } });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'term_exists', data: { term_id: 8 } });
  });

  it('answers a delete that loses a version race with 409 rest_conflict', async () => {
    ddb.on(GetCommand).resolves({ Item: storedTerm(5) });
    // The delete's first write (the tombstone) is under the version read (decisions §6).
    ddb.on(TransactWriteCommand).callsFake(cancelWhere({ pk: 'TERM#5', op: 'Update' }, FAILED));

    const res = await call(deleteCategory, 'DELETE', '/categories/5', { id: 5 });

    expect(res.status).toBe(409);
    expect(res.body.code).toBe('rest_conflict');
  });

  it('answers 404 without writing when the term does not exist', async () => {
    const res = await call(deleteCategory, 'DELETE', '/categories/5', { id: 5 });

    expect(res.status).toBe(404);
    expect(res.body.code).toBe('rest-category-not-found');
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});

describe('the pipeline, without the gateway', () => {
  it('answers an anonymous write with 401 before reading anything', async () => {
    const res = await call(createCategory, 'POST', '/categories', { body: { name: 'Music' }, auth: false });

    expect(res.status).toBe(401);
    expect(ddb.calls()).toHaveLength(0);
  });

  it('answers an invalid body with 400 before reading anything', async () => {
    const res = await call(createCategory, 'POST', '/categories', { body: { name: '' } });

    expect(res.status).toBe(400);
    expect(ddb.calls()).toHaveLength(0);
  });

  it('reads a base64-encoded body', async () => {
    const event = {
      rawPath: '/cal/events/v1/tags',
      rawQueryString: '',
      headers: { host: 'api.test', authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ name: 'Encoded' })).toString('base64'),
      isBase64Encoded: true,
      requestContext: { requestId: 'r', http: { method: 'POST' } },
    } as unknown as APIGatewayProxyEventV2;

    const res = await (createTag as unknown as Handler)(event, { awsRequestId: 'r' } as Context);

    expect(res.statusCode).toBe(201);
    expect(JSON.parse(String(res.body))).toMatchObject({ id: 42, name: 'Encoded', slug: 'encoded' });
  });
});
