import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { termSortName } from '../../shared/domain/term-order';

/** The order term lists use today (shared/services/terms/read.ts): the index must reproduce it. */
const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
const sign = (n: number) => Math.sign(n);
const key = (name: string, id: number) => `${termSortName(name)} ${String(id).padStart(12, '0')}`;

const sortable = fc.stringMatching(/^[A-Za-zÉéÀàüÜ0-9 -]{0,12}$/);

describe('termSortName', () => {
  it('orders names (ties by ID) as the list collator does', () => {
    fc.assert(
      fc.property(sortable, sortable, fc.nat(1000), fc.nat(1000), (a, b, ia, ib) => {
        const want = sign(collator.compare(a, b) || ia - ib);
        const ka = key(a, ia);
        const kb = key(b, ib);
        expect(sign(ka < kb ? -1 : ka > kb ? 1 : 0), `${a} / ${b}`).toBe(want);
      }),
      { numRuns: 3000 },
    );
  });

  it('orders the cases the collator is particular about', () => {
    const names = [
      'tag10',
      'Tag2',
      'tag 2',
      'tag-2',
      'tag',
      'Été',
      'ete 1',
      'a0',
      'a00',
      '007',
      '7',
      'a b',
      'ab',
    ];
    const byIndex = [...names].sort((x, y) => (key(x, 0) < key(y, 0) ? -1 : key(x, 0) > key(y, 0) ? 1 : 0));
    const byCollator = [...names].sort((x, y) => collator.compare(x, y));
    expect(byIndex.map((n) => termSortName(n))).toEqual(byCollator.map((n) => termSortName(n)));
  });

  it('has no sort name for characters whose order bytes cannot keep', () => {
    for (const name of ['tag_1', 'Ærø', 'a.b', 'straße', 'x'.repeat(3) + '1'.repeat(13)])
      expect(termSortName(name), name).toBeUndefined();
  });
});
