import { describe, expect, it } from 'vitest';
import { itemSize } from '../../bench/usage';

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
