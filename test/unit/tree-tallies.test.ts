import { describe, expect, it } from 'vitest';
import { tallyCount, tallyScope } from '../../shared/domain/event-query';
import { allScope, ancestorsOrSelf, ticketedScope, treeScope } from '../../shared/domain/tallies';

describe('subtree tally scopes', () => {
  const parentOf = new Map([
    [1, 0],
    [2, 1],
    [3, 2],
    [4, 1],
    [5, 0],
  ]);

  it('names every ancestor-or-self of the categories once', () => {
    expect(ancestorsOrSelf([3], parentOf)).toEqual([3, 2, 1]);
    expect(ancestorsOrSelf([3, 4], parentOf).sort()).toEqual([1, 2, 3, 4]);
    expect(ancestorsOrSelf([5, 1], parentOf).sort()).toEqual([1, 5]);
    // A category the map does not know (created in the same write) is its own subtree.
    expect(ancestorsOrSelf([9], parentOf)).toEqual([9]);
    expect(ancestorsOrSelf([], parentOf)).toEqual([]);
  });

  it('counts one category with children by its subtree, and nothing else by it', () => {
    const tree = { kind: 'TERM' as const, ids: [1, 2, 3, 4], leaf: false, tree: 1 };
    expect(tallyScope([tree], undefined)).toEqual(treeScope(1));
    expect(tallyScope([tree], true)).toBeUndefined();
    expect(tallyScope([{ kind: 'TERM', ids: [1, 2], leaf: false }], undefined)).toBeUndefined();
    expect(tallyScope([{ kind: 'TERM', ids: [5], leaf: true }], undefined)).toEqual({
      of: 'link',
      kind: 'TERM',
      id: 5,
    });
    expect(tallyScope([tree, { kind: 'VENUE', ids: [7], leaf: true }], undefined)).toBeUndefined();
  });

  it('counts ticketed=true by its own scope, and ticketed=false alone as every event less it', () => {
    const ticketed = { kind: 'TICKETED' as const, ids: [0], leaf: true };
    expect(tallyScope([ticketed], undefined)).toEqual(ticketedScope);
    expect(tallyCount([ticketed], undefined, true)).toEqual({ scope: ticketedScope });
    expect(tallyCount([], undefined, false)).toEqual({ scope: allScope, less: ticketedScope });
    // No tally pairs it with another filter or with featured.
    expect(tallyCount([ticketed], true, true)).toBeUndefined();
    expect(tallyCount([], true, false)).toBeUndefined();
    expect(tallyCount([{ kind: 'TERM', ids: [5], leaf: true }], undefined, false)).toBeUndefined();
    expect(tallyCount([{ kind: 'TERM', ids: [5], leaf: true }], undefined, undefined)).toEqual({
      scope: { of: 'link', kind: 'TERM', id: 5 },
    });
  });
});
