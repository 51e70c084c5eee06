import {
  DynamoDBDocumentClient,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { handler as createVenue } from '../../functions/venues/create-venue';
import { signLocalToken } from '../../local/token';
import { invoke } from '../support/invoke';
import { cancelWhere, sentItems } from '../support/transactions';

/**
 * Slug allocation of POST /venues when its transaction is cancelled on the slug guard (decisions §6:
 * two concurrent claims of one slug give `x` and `x-2`, never an error), with DynamoDB replaced by
 * aws-sdk-client-mock: a lost race (TransactionConflict) retries the same slug, a taken guard
 * (ConditionalCheckFailed) moves on to the next one.
 */
const ddb = mockClient(DynamoDBDocumentClient);
let token: string;

beforeAll(async () => {
  token = await signLocalToken(process.env.AUTH_LOCAL_SECRET!, 'editor', 'user-editor');
});
beforeEach(() => {
  ddb.reset();
  ddb.onAnyCommand().resolves({});
  // The next ID of the post sequence, and an empty slug index.
  ddb.on(UpdateCommand).resolves({ Attributes: { value: 77 } });
  ddb.on(QueryCommand).resolves({ Items: [] });
});
afterAll(() => ddb.restore());

const post = (body: unknown) =>
  invoke(createVenue, 'POST', '/venues', { body, token, context: { awsRequestId: 'req-1' } });

const SLUG_GUARD = { pk: /^SLUG#venue#/, op: 'Put' } as const;

/** The slug guards the handler tried to put, in the order of its transactions. */
const guardsTried = () => sentItems(ddb, SLUG_GUARD).map((item) => String(item.Put!.Item!.pk));

describe('POST /venues when the slug guard is contended', () => {
  it('retries a transaction that lost a race (TransactionConflict) and answers 201', async () => {
    ddb.on(TransactWriteCommand).callsFakeOnce(cancelWhere(SLUG_GUARD, 'TransactionConflict')).resolves({});

    const res = await post({ venue: 'Contended Hall' });

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: 77, venue: 'Contended Hall', slug: 'contended-hall' });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(2);
    expect(guardsTried()).toEqual(['SLUG#venue#contended-hall', 'SLUG#venue#contended-hall']);
  });

  it('moves on to the -2 slug when the guard is taken (ConditionalCheckFailed) and answers 201', async () => {
    // The loser draws its next suffix from the slug's counter (started above the taken `taken-hall`).
    ddb
      .on(UpdateCommand, { Key: { pk: 'SLUGSEQ#venue#taken-hall', sk: 'SEQ' } })
      .resolves({ Attributes: { n: 2 } });
    ddb
      .on(TransactWriteCommand)
      .callsFakeOnce(cancelWhere(SLUG_GUARD, 'ConditionalCheckFailed'))
      .resolves({});

    const res = await post({ venue: 'Taken Hall' });

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: 77, venue: 'Taken Hall', slug: 'taken-hall-2' });
    expect(res.headers.Location).toBe('https://api.test/cal/events/v1/venues/77');
    expect(guardsTried()).toEqual(['SLUG#venue#taken-hall', 'SLUG#venue#taken-hall-2']);
  });

  it('answers 503 when every retry loses its race', async () => {
    ddb.on(TransactWriteCommand).callsFake(cancelWhere(SLUG_GUARD, 'TransactionConflict'));

    const res = await post({ venue: 'Hopeless Hall' });

    expect(res.status).toBe(503);
    expect(res.body.code).toBe('rest_service_unavailable');
    expect(res.headers['Retry-After']).toBe('1');
  });
});
