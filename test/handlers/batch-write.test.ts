import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { ddb, tableName } from '../../shared/db/client';
import { batchWrite } from '../../shared/db/query';

/**
 * The one batch-write helper (shared/db/query.ts batchWrite) behind the tally and search-index
 * rebuilds and the batch deletes: what DynamoDB leaves unprocessed is sent again, and a round that
 * stays unprocessed is a ThrottlingException. A real table does not leave items unprocessed on
 * demand, so the client is mocked here.
 */
const mock = mockClient(ddb);
beforeEach(() => mock.reset());
afterAll(() => mock.restore());

const put = (n: number) => ({ put: { pk: `P${n}`, sk: 'S', n } });
const sent = () =>
  mock.commandCalls(BatchWriteCommand).map((c) => c.args[0].input.RequestItems![tableName()]!.length);

describe('batchWrite', () => {
  it('writes in rounds of 25 and sends again what was left unprocessed', async () => {
    const writes = Array.from({ length: 30 }, (_, i) => put(i));
    mock
      .on(BatchWriteCommand)
      .resolvesOnce({ UnprocessedItems: { [tableName()]: [{ PutRequest: { Item: writes[3]!.put } }] } })
      .resolves({});

    await batchWrite([...writes, { delete: { pk: 'GONE', sk: 'S' } }]);

    expect(sent()).toEqual([25, 1, 6]);
  });

  it('gives up with a ThrottlingException when a round stays unprocessed', async () => {
    mock.on(BatchWriteCommand).callsFake((input) => ({ UnprocessedItems: input.RequestItems }));

    await expect(batchWrite([put(1)])).rejects.toMatchObject({ name: 'ThrottlingException' });
    expect(sent()).toEqual(Array(8).fill(1));
  });
});
