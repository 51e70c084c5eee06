import { DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler as createCategory } from '../../functions/categories/create-category';
import { handler as deleteCategory } from '../../functions/categories/delete-category';
import { handler as getCategory } from '../../functions/categories/get-category';
import { handler as createEvent } from '../../functions/events/create-event';
import { signLocalToken } from '../../local/token';
import { countersFor } from '../../shared/http/counters';
import { publishCounters } from '../../shared/http/emf';
import { invoke } from '../support/invoke';
import { storedTerm } from '../support/stored-term';

/**
 * Business counters (shared/http/metrics.ts): one embedded-metric-format line on stdout per counter
 * when enabled, nothing at all otherwise (tests and the local stack stay quiet).
 */
const ddb = mockClient(DynamoDBDocumentClient);
let token: string;
let lines: string[];

beforeAll(async () => {
  token = await signLocalToken(process.env.AUTH_LOCAL_SECRET!, 'editor', 'user-editor');
});
beforeEach(() => {
  ddb.reset();
  ddb.onAnyCommand().resolves({});
  ddb.on(UpdateCommand).resolves({ Attributes: { value: 42 } });
  ddb.on(QueryCommand).resolves({ Items: [] });
  lines = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});
afterAll(() => ddb.restore());

/** A category as stored. */
const TERM = storedTerm(5);

/** The EMF documents written to stdout. */
const emf = () =>
  lines
    .flatMap((l) => l.split('\n'))
    .filter((l) => l.includes('"_aws"'))
    .map((l) => JSON.parse(l) as Record<string, any>);

describe('counters of an answer', () => {
  it.each([
    ['createEvent', 201, '{}', [['EventsCreated', {}]]],
    ['createEvent', 200, '{}', []],
    ['createVenue', 201, '{}', []],
    ['deleteEvent', 200, '{}', [['Deletes', { operation: 'deleteEvent' }]]],
    ['deleteTagBySlug', 200, '{}', [['Deletes', { operation: 'deleteTagBySlug' }]]],
    [
      'deleteEvent',
      410,
      '{"code":"rest-event-is-in-trash"}',
      [['ClientErrors', { code: 'rest-event-is-in-trash' }]],
    ],
    ['listEvents', 400, '{"code":"rest_invalid_param"}', [['ClientErrors', { code: 'rest_invalid_param' }]]],
    ['listEvents', 404, 'not json', [['ClientErrors', { code: 'unknown' }]]],
    ['listEvents', 200, '[]', []],
    ['listEvents', 503, '{"code":"rest_service_unavailable"}', []],
  ] as const)('%s answered %i %s', (operationId, statusCode, body, expected) => {
    expect(countersFor({ operationId }, { statusCode, body })).toEqual(expected);
  });

  it('does not count a create answered again for its Idempotency-Key', () => {
    const replay = { statusCode: 201, body: '{}', headers: { 'Idempotent-Replayed': 'true' } };
    expect(countersFor({ operationId: 'createEvent' }, replay)).toEqual([]);
  });
});

describe('the embedded-metric-format line', () => {
  it('is the document CloudWatch reads: namespace, service and own dimensions, a count of 1', () => {
    publishCounters(
      [
        ['ClientErrors', { code: 'rest_invalid_param' }],
        ['EventsCreated', {}],
      ],
      1795819753393,
    );

    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual([
      {
        _aws: {
          Timestamp: 1795819753393,
          CloudWatchMetrics: [
            {
              Namespace: 'CalEvents',
              Dimensions: [['service', 'code']],
              Metrics: [{ Name: 'ClientErrors', Unit: 'Count' }],
            },
          ],
        },
        service: 'cal-events',
        code: 'rest_invalid_param',
        ClientErrors: 1,
      },
      {
        _aws: {
          Timestamp: 1795819753393,
          CloudWatchMetrics: [
            {
              Namespace: 'CalEvents',
              Dimensions: [['service']],
              Metrics: [{ Name: 'EventsCreated', Unit: 'Count' }],
            },
          ],
        },
        service: 'cal-events',
        EventsCreated: 1,
      },
    ]);
    expect(lines.every((l) => l.endsWith('}\n'))).toBe(true);
  });
});

describe('published by every handler', () => {
  it('writes nothing by default outside Lambda', async () => {
    const res = await invoke(getCategory, 'GET', '/categories/5', { pathParameters: { id: '5' } });

    expect(res.status).toBe(404);
    expect(emf()).toEqual([]);
  });

  it('counts a 4xx by its code in the configured namespace when enabled', async () => {
    vi.stubEnv('CAL_METRICS', '1');

    const res = await invoke(getCategory, 'GET', '/categories/5', { pathParameters: { id: '5' } });

    expect(res.status).toBe(404);
    const [doc, ...more] = emf();
    expect(more).toEqual([]);
    expect(doc!._aws.CloudWatchMetrics[0].Namespace).toBe('CalEvents');
    expect(doc!._aws.CloudWatchMetrics[0].Metrics).toEqual([{ Name: 'ClientErrors', Unit: 'Count' }]);
    expect(doc).toMatchObject({ ClientErrors: 1, code: res.body.code, service: 'cal-events' });
  });

  it('counts a 401 raised before validation too', async () => {
    vi.stubEnv('CAL_METRICS', '1');

    const res = await invoke(createCategory, 'POST', '/categories', { body: { name: 'X' } });

    expect(res.status).toBe(401);
    expect(emf().map((d) => [d.ClientErrors, d.code])).toEqual([[1, 'rest_forbidden']]);
  });

  it('counts a delete', async () => {
    vi.stubEnv('CAL_METRICS', '1');
    ddb.on(GetCommand).resolves({ Item: TERM });

    const res = await invoke(deleteCategory, 'DELETE', '/categories/5', {
      token,
      pathParameters: { id: '5' },
    });

    expect(res.status).toBe(200);
    expect(emf().map((d) => [d.Deletes, d.operation])).toEqual([[1, 'deleteCategory']]);
  });

  it('counts a create, written before the handler resolves', async () => {
    vi.stubEnv('CAL_METRICS', '1');

    const res = await invoke(createEvent, 'POST', '/events', {
      token,
      body: { title: 'Counted', start_date: '2032-03-01 09:00:00', end_date: '2032-03-01 10:00:00' },
    });

    expect(res.status, res.text).toBe(201);
    const [doc, ...more] = emf();
    expect(more).toEqual([]);
    expect(doc!._aws.CloudWatchMetrics[0].Metrics).toEqual([{ Name: 'EventsCreated', Unit: 'Count' }]);
    expect(doc).toMatchObject({ EventsCreated: 1, service: 'cal-events' });
  });

  it('is switched off by POWERTOOLS_METRICS_DISABLED=true even in Lambda', async () => {
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'fn');
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'true');

    await invoke(getCategory, 'GET', '/categories/5', { pathParameters: { id: '5' } });

    expect(emf()).toEqual([]);
  });
});
