import {
  DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { handler as createOrganizer } from '../../functions/organizers/create-organizer';
import { handler as deleteVenue } from '../../functions/venues/delete-venue';
import { handler as getVenue } from '../../functions/venues/get-venue';
import { handler as updateVenue } from '../../functions/venues/update-venue';
import { signLocalToken } from '../../local/token';
import { invoke } from '../support/invoke';
import { cancelWhere, sentItems } from '../support/transactions';

/**
 * Failures a real table will not produce on demand: lost version races, cancelled transactions,
 * throttling and unexpected errors, with DynamoDB replaced by aws-sdk-client-mock.
 */
const ddb = mockClient(DynamoDBDocumentClient);
let token: string;

beforeAll(async () => {
  token = await signLocalToken(process.env.AUTH_LOCAL_SECRET!, 'editor', 'user-editor');
});
beforeEach(() => {
  ddb.reset();
  // An unmatched command resolves undefined; give every command an empty answer by default.
  ddb.onAnyCommand().resolves({});
});
afterAll(() => ddb.restore());

const call = (
  fn: unknown,
  method: string,
  path: string,
  o: { body?: unknown; params?: Record<string, string> } = {},
) =>
  invoke(fn, method, path, {
    body: o.body,
    token,
    pathParameters: o.params,
    context: { awsRequestId: 'req-1' },
  });

const venueItem = {
  pk: 'POST#5',
  sk: 'POST',
  id: 5,
  type: 'venue',
  status: 'publish',
  author: 'user-editor',
  slug: 'stage',
  title: 'Stage',
  description: '',
  excerpt: '',
  date: '2026-01-01 10:00:00',
  date_utc: '2026-01-01 10:00:00',
  modified: '2026-01-01 10:00:00',
  modified_utc: '2026-01-01 10:00:00',
  sortDate: '2026-01-01 10:00:00',
  version: 3,
  countPublic: 0,
  countAll: 0,
  data: { show_map: true, show_map_link: true },
};

const FAILED = 'ConditionalCheckFailed';

describe('venue and organizer handlers on a failing data store', () => {
  it('answers 409 rest_conflict when the version condition loses a race', async () => {
    ddb.on(GetCommand).resolves({ Item: venueItem });
    ddb.on(TransactWriteCommand).callsFake(cancelWhere({ pk: 'POST#5', sk: 'POST' }, FAILED));

    const res = await call(updateVenue, 'PATCH', '/venues/5', {
      params: { id: '5' },
      body: { city: 'Lyon' },
    });

    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      code: 'rest_conflict',
      message: 'The venue was changed by another request at the same time; retry.',
      data: { status: 409 },
    });
  });

  it('writes the update under the version it read', async () => {
    ddb.on(GetCommand).resolves({ Item: venueItem });

    const res = await call(updateVenue, 'PATCH', '/venues/5', {
      params: { id: '5' },
      body: { city: 'Lyon' },
    });

    expect(res.status).toBe(200);
    expect(res.body.city).toBe('Lyon');
    const write = sentItems(ddb, { pk: 'POST#5', sk: 'POST', op: 'Update' })[0]!.Update!;
    // Under the version read, and only while no permanent delete has begun (decisions §6).
    expect(write.ConditionExpression).toBe('version = :v AND attribute_not_exists(deleting)');
    expect(write.ExpressionAttributeValues![':v']).toBe(3);
  });

  it('answers 503 with Retry-After when the table throttles', async () => {
    ddb.on(GetCommand).rejects(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }));

    const res = await call(getVenue, 'GET', '/venues/5', { params: { id: '5' } });

    expect(res.status).toBe(503);
    expect(res.headers['Retry-After']).toBe('1');
    expect(res.body.code).toBe('rest_service_unavailable');
  });

  it('answers 500 with the request ID and no internals for an unexpected failure', async () => {
    ddb.on(GetCommand).rejects(new Error('socket hang up at 10.0.0.7'));

    const res = await call(getVenue, 'GET', '/venues/5', { params: { id: '5' } });

    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      code: 'rest_internal_error',
      message: 'An unexpected error occurred.',
      data: { status: 500, request_id: 'req-1' },
    });
  });

  it('trashes a venue linked to any number of events in one write that leaves its links alone (decisions §6)', async () => {
    ddb.on(GetCommand).resolves({ Item: venueItem });
    ddb.on(QueryCommand).resolves({ Items: Array.from({ length: 31 }, (_, i) => ({ eventId: 100 + i })) });
    ddb.on(TransactWriteCommand).resolves({});

    const res = await call(deleteVenue, 'DELETE', '/venues/5', { params: { id: '5' } });

    expect(res.status).toBe(200);
    expect(res.body.status).toBe('trash');
    const items = ddb.commandCalls(TransactWriteCommand).flatMap((c) => c.args[0].input.TransactItems ?? []);
    const keys = items.map((i) =>
      String(i.Put?.Item?.pk ?? (i.Update ?? i.Delete ?? i.ConditionCheck)?.Key?.pk),
    );
    expect(keys.some((k) => k.startsWith('POST#1'))).toBe(false);
    expect(keys).toContain('POST#5');
  });

  it('moves on to the next slug when a concurrent create takes the slug guard first', async () => {
    ddb.on(UpdateCommand).resolves({ Attributes: { value: 42 } });
    // The loser draws its next suffix from the slug's counter (started above the taken `raced`).
    ddb
      .on(UpdateCommand, { Key: { pk: 'SLUGSEQ#organizer#raced', sk: 'SEQ' } })
      .resolves({ Attributes: { n: 2 } });
    ddb.on(QueryCommand).resolves({ Items: [] });
    ddb
      .on(TransactWriteCommand)
      .callsFakeOnce(cancelWhere({ pk: /^SLUG#organizer#/, op: 'Put' }, FAILED))
      .resolves({});

    const res = await call(createOrganizer, 'POST', '/organizers', { body: { organizer: 'Raced' } });

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: 42, slug: 'raced-2' });
    expect(res.headers.Location).toBe('https://api.test/cal/events/v1/organizers/42');
  });
});
