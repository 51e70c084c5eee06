import { describe, expect, it } from 'vitest';
import { itemSize, keysToSize, tableKey } from '../../bench/usage';

/**
 * The bench works out write units from item sizes (DynamoDB Local reports 2 per transaction whatever
 * it holds): sizes as DynamoDB bills them, names and values together.
 */
describe('itemSize (bench/usage.ts)', () => {
  it('counts attribute names and string values by their UTF-8 bytes', () => {
    expect(itemSize({ pk: 'POST#1', sk: 'POST' })).toBe(2 + 6 + 2 + 4);
    expect(itemSize({ t: 'héllo' })).toBe(1 + 6);
  });

  it('counts a number by its significant digits, about one byte per two, plus one', () => {
    expect(itemSize({ n: 7 })).toBe(1 + 2);
    expect(itemSize({ n: 123 })).toBe(1 + 3);
    expect(itemSize({ n: -1234.5 })).toBe(1 + 4);
  });

  it('counts lists and maps with 3 bytes and one per element beside their contents', () => {
    expect(itemSize({ l: ['ab', 'c'] })).toBe(1 + 3 + (2 + 1) + (1 + 1));
    expect(itemSize({ m: { a: true, b: null } })).toBe(1 + 3 + (1 + 1 + 1) + (1 + 1 + 1));
  });

  it('makes a month tally item of a few hundred attributes a few KB (several write units)', () => {
    const item: Record<string, unknown> = { pk: 'TALLY#ALL', sk: '2027-01' };
    for (let d = 1; d <= 31; d++)
      for (let dur = 0; dur < 10; dur++) item[`p${String(d).padStart(2, '0')}|${dur}`] = 12;
    expect(itemSize(item)).toBeGreaterThan(2048);
    expect(itemSize(item)).toBeLessThan(3072);
  });
});

/**
 * An update's units come from its item as the write left it, read back by key with BatchGetItem,
 * which refuses a whole batch ("Invalid attribute value type") over one key value that is a map or a
 * set: the keys read are the table's own, each once.
 */
describe('keysToSize (bench/usage.ts)', () => {
  it("reads back a series transaction's updates and condition checks, each key once, never its puts", () => {
    const series = { pk: 'SERIES#7', sk: 'SERIES' };
    const input = {
      TransactItems: [
        {
          Put: {
            TableName: 't',
            Item: { ...series, members: { '7': '2027-01-05 19:00:00' }, lines: ['RRULE:FREQ=WEEKLY'] },
          },
        },
        {
          Update: {
            TableName: 't',
            Key: { pk: 'POST#8', sk: 'POST' },
            UpdateExpression: 'SET #d.#f = :list, tags = :set',
            ExpressionAttributeValues: { ':list': [1, 2], ':set': new Set(['a', 'b']) },
          },
        },
        {
          Update: {
            TableName: 't',
            Key: { pk: { S: 'TALLY#ALL' }, sk: { S: '2027-01' } },
            UpdateExpression: 'ADD #a0 :d0',
          },
        },
        {
          Update: {
            TableName: 't',
            Key: { pk: 'TALLY#ALL', sk: '2027-01' },
            UpdateExpression: 'ADD #a1 :d1',
          },
        },
        {
          ConditionCheck: {
            TableName: 't',
            Key: { pk: 'POST#3', sk: 'POST', gsi1pk: 'x' },
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        { Delete: { TableName: 't', Key: { pk: 'LINK#1', sk: 'X' } } },
      ],
    };
    expect(keysToSize('TransactWriteItemsCommand', input)).toEqual([
      { pk: 'POST#8', sk: 'POST' },
      { pk: 'TALLY#ALL', sk: '2027-01' },
      { pk: 'POST#3', sk: 'POST' },
    ]);
  });

  it('reads back a single update by its key', () => {
    expect(
      keysToSize('UpdateItemCommand', {
        Key: { pk: 'SERIES#7', sk: 'SERIES' },
        UpdateExpression: 'REMOVE journal',
      }),
    ).toEqual([{ pk: 'SERIES#7', sk: 'SERIES' }]);
    expect(keysToSize('PutItemCommand', { Item: { pk: 'a', sk: 'b' } })).toEqual([]);
  });

  it('takes no key whose value is a map or a set', () => {
    expect(tableKey({ pk: { M: { S: 'x' } }, sk: 'b' })).toBeUndefined();
    expect(tableKey({ pk: new Set(['a']), sk: 'b' })).toBeUndefined();
    expect(tableKey({ pk: 'a' })).toBeUndefined();
    expect(tableKey({ pk: { N: '5' }, sk: 'b' })).toEqual({ pk: 5, sk: 'b' });
  });
});
