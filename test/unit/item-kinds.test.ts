import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fillPattern, indexAttributes, ITEM_KINDS, type ItemKind } from '../../shared/db/item-kinds';
import { keys } from '../../shared/db/keys';
import { TABLE } from '../../shared/db/table';

/**
 * The item kinds of shared/db/item-kinds.ts (docs/data-model.md's Items table) say what the builders
 * of shared/db/keys.ts write: each example's values, put in the kind's patterns, give the attributes
 * the builders make of the same values, and every builder is some kind's.
 */

/** The builders of keys.ts that make keys or index attributes (the others name partitions and prefixes). */
type Builder = {
  [K in keyof typeof keys]: (typeof keys)[K] extends (...args: never[]) => object ? K : never;
}[keyof typeof keys];

/**
 * Every builder, listed so that a new one fails to compile until it is added here, and then this test
 * until an item kind uses it. `linkTarget` picks a term's or a post's key, which their kinds show.
 */
const BUILDERS: Record<Exclude<Builder, 'linkTarget'>, true> = {
  counter: true,
  term: true,
  termIndex: true,
  termNameIndex: true,
  termTotals: true,
  termNameGuard: true,
  post: true,
  postSlugIndex: true,
  postDateIndex: true,
  eventEndIndex: true,
  featuredIndex: true,
  slugGuard: true,
  slugSequence: true,
  link: true,
  linkIndex: true,
  statusTotals: true,
  tally: true,
  tallySums: true,
  treeStale: true,
  creationGuard: true,
  series: true,
  seriesMember: true,
  ticketedMember: true,
  seriesIndex: true,
  journalIndex: true,
  change: true,
  webhook: true,
  delivery: true,
  laneMarker: true,
  job: true,
  scheduled: true,
  importRecord: true,
  imported: true,
  ticket: true,
  ticketIndex: true,
  attendee: true,
  attendeeIndex: true,
  mail: true,
  mailQueueIndex: true,
  rateCount: true,
  word: true,
  wordIndex: true,
};

const examples = ITEM_KINDS.flatMap((kind) =>
  kind.examples.map((example, n) => ({ kind, example, n: String(n + 1) })),
);
const indexAttrs = new Set(
  Object.values(TABLE.indexes).flatMap((ix) => [ix.partitionKey, ix.sortKey] as string[]),
);

describe('item kinds', () => {
  it.each(examples)('$kind.item (example $n): its key is what keys.ts builds', ({ kind, example }) => {
    const built = example.attributes();

    expect(built.pk).toBe(fillPattern(kind.pk, example.values));
    if (kind.skBy) expect(built.sk).toBeUndefined();
    else expect(built.sk).toBe(fillPattern(kind.sk, example.values));
  });

  it.each(examples)(
    '$kind.item (example $n): its index keys are what keys.ts builds',
    ({ kind, example }) => {
      const built = example.attributes();
      const carried = Object.entries(built).filter(([name, v]) => indexAttrs.has(name) && v !== undefined);
      const declared = (kind.indexes ?? []).flatMap((i) => {
        const { pk, sk } = indexAttributes(i.index);
        return built[pk] === undefined
          ? []
          : [
              [pk, fillPattern(i.pk, example.values)],
              [sk, fillPattern(i.sk, example.values)],
            ];
      });

      expect(Object.fromEntries(carried)).toEqual(Object.fromEntries(declared));
    },
  );

  it.each(ITEM_KINDS.filter((k) => k.indexes?.length))(
    '$item: each declared index is carried by an example',
    (kind: ItemKind) => {
      const shown = (kind.indexes ?? []).filter((i) =>
        kind.examples.some((e) => e.attributes()[indexAttributes(i.index).pk] !== undefined),
      );

      expect(shown).toEqual(kind.indexes);
    },
  );

  it('names each kind once, and no two kinds share key patterns', () => {
    const names = ITEM_KINDS.map((k) => k.item);
    const patterns = ITEM_KINDS.map((k) => `${k.pk} / ${k.sk}`);

    expect(new Set(names).size).toBe(names.length);
    expect(new Set(patterns).size).toBe(patterns.length);
  });
});

describe('keys.ts builders', () => {
  const spies = Object.keys(BUILDERS).map((name) => [name, vi.spyOn(keys, name as Builder)] as const);
  beforeAll(() => {
    for (const { example } of examples) example.attributes();
  });
  afterAll(() => {
    vi.restoreAllMocks();
  });

  it('are each used by an item kind', () => {
    const unused = spies.filter(([, spy]) => spy.mock.calls.length === 0).map(([name]) => name);

    expect(unused).toEqual([]);
  });
});
