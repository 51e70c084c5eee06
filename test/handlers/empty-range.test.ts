import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { collect, queryIndex } from '../../shared/db/query';

/**
 * A sort-key range whose lower end is above its upper end holds nothing. DynamoDB does not answer
 * such a Query with no items but rejects it (ValidationException), which reached callers as a 500
 * (found by test/integration/hostile-input.test.ts: GET /events/ical?featured=0&ends_before=0).
 */
const ddb = mockClient(DynamoDBDocumentClient);
beforeEach(() => {
  ddb.reset();
  ddb.on(QueryCommand).resolves({ Items: [{ pk: 'X', sk: 'b' }] });
});
afterAll(() => ddb.restore());

describe('queryIndex over a range', () => {
  it('reads nothing and sends no Query when the range is empty (lower end above the upper end)', async () => {
    const items = await collect(
      queryIndex({ partition: 'X', sort: { between: ['2026-10-24', '1970-01-01~'] } }),
    );

    expect(items).toEqual([]);
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
  });

  it('queries a range of one value', async () => {
    const items = await collect(queryIndex({ partition: 'X', sort: { between: ['b', 'b'] } }));

    expect(items).toHaveLength(1);
    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input.KeyConditionExpression).toContain('BETWEEN');
  });
});
