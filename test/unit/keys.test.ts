import { describe, expect, it } from 'vitest';
import { keys } from '../../shared/db/keys';
import {
  allScope,
  featuredScope,
  linkedScope,
  ticketedScope,
  treeScope,
  venueTreeScope,
} from '../../shared/domain/tallies';

/** Every key format of the single table (shared/db/keys.ts; docs/data-model.md). */

describe('item keys', () => {
  it('keys the ID sequences under COUNTER, one sort key per sequence', () => {
    const post = keys.counter('post');
    const term = keys.counter('term');

    expect([post, term]).toEqual([
      { pk: 'COUNTER', sk: 'post' },
      { pk: 'COUNTER', sk: 'term' },
    ]);
  });

  it('keys a term as TERM#<id> / TERM', () => {
    const key = keys.term(12);

    expect(key).toEqual({ pk: 'TERM#12', sk: 'TERM' });
  });

  it('keys a post as POST#<id> / POST', () => {
    const key = keys.post(7);

    expect(key).toEqual({ pk: 'POST#7', sk: 'POST' });
  });

  it('keys a link as POST#<event> / LINK#<kind>#<target>', () => {
    const key = keys.link(7, 'VENUE', 31);

    expect(key).toEqual({ pk: 'POST#7', sk: 'LINK#VENUE#31' });
  });

  it('keeps an event and its links in one partition', () => {
    const link = keys.link(7, 'TERM', 3);

    expect(link.pk).toBe(keys.post(7).pk);
  });

  it('keys a slug guard as SLUG#<type or taxonomy>#<slug> / GUARD', () => {
    const guards = [keys.slugGuard('venue', 'blue-note'), keys.slugGuard('post_tag', 'outdoor')];

    expect(guards).toEqual([
      { pk: 'SLUG#venue#blue-note', sk: 'GUARD' },
      { pk: 'SLUG#post_tag#outdoor', sk: 'GUARD' },
    ]);
  });

  it('keys the status totals of a post type as COUNT#<type> / STATUS#<shard> (sharded against hot writes)', () => {
    const key = keys.statusTotals('organizer', 3);

    expect(key).toEqual({ pk: 'COUNT#organizer', sk: 'STATUS#3' });
  });

  it('keys a month tally as TALLY#<scope> / <start month>', () => {
    const key = keys.tally(linkedScope({ kind: 'TERM', id: 5 }), '2027-01');

    expect(key).toEqual({ pk: 'TALLY#TERM#5', sk: '2027-01' });
  });

  // Existing tables hold these strings: a scope's keys must stay byte for byte what they are.
  it('keys the month tallies and day sums of every kind of scope exactly as stored', () => {
    const scopes = [
      allScope,
      featuredScope,
      ticketedScope,
      linkedScope({ kind: 'TERM', id: 5 }),
      linkedScope({ kind: 'VENUE', id: 4 }),
      linkedScope({ kind: 'ORGANIZER', id: 9 }),
      treeScope(7),
      venueTreeScope(4, 7),
    ];

    const stored = scopes.map((s) => [
      keys.tallyPartition(s),
      keys.tally(s, '2027-01'),
      keys.tallySums(s, '2027-01'),
    ]);

    expect(stored).toEqual([
      ['TALLY#ALL', { pk: 'TALLY#ALL', sk: '2027-01' }, { pk: 'TALLY#ALL', sk: 'S#2027-01' }],
      ['TALLY#FEATURED', { pk: 'TALLY#FEATURED', sk: '2027-01' }, { pk: 'TALLY#FEATURED', sk: 'S#2027-01' }],
      ['TALLY#TICKETED', { pk: 'TALLY#TICKETED', sk: '2027-01' }, { pk: 'TALLY#TICKETED', sk: 'S#2027-01' }],
      ['TALLY#TERM#5', { pk: 'TALLY#TERM#5', sk: '2027-01' }, { pk: 'TALLY#TERM#5', sk: 'S#2027-01' }],
      ['TALLY#VENUE#4', { pk: 'TALLY#VENUE#4', sk: '2027-01' }, { pk: 'TALLY#VENUE#4', sk: 'S#2027-01' }],
      [
        'TALLY#ORGANIZER#9',
        { pk: 'TALLY#ORGANIZER#9', sk: '2027-01' },
        { pk: 'TALLY#ORGANIZER#9', sk: 'S#2027-01' },
      ],
      ['TALLY#TREE#7', { pk: 'TALLY#TREE#7', sk: '2027-01' }, { pk: 'TALLY#TREE#7', sk: 'S#2027-01' }],
      [
        'TALLY#VENUE#4',
        { pk: 'TALLY#VENUE#4', sk: 'TREE#7#2027-01' },
        { pk: 'TALLY#VENUE#4', sk: 'TREE#7#S#2027-01' },
      ],
    ]);
    expect(keys.treeStale(7)).toEqual({ pk: 'TALLY#TREE#7', sk: 'STALE' });
  });

  it("keys an event's membership of the ticketed events like a link of its own", () => {
    expect(keys.ticketedMember(7)).toEqual({ pk: 'POST#7', sk: 'LINK#TICKETED#0' });
    expect(keys.linkIndex('TICKETED', 0, '2027-01-15 20:00:00', 7)).toEqual({
      gsi4pk: 'TICKETED#0',
      gsi4sk: '2027-01-15 20:00:00#000000000007',
    });
  });

  it('sorts the stale flag of a subtree after every month of its tallies', () => {
    const flag = keys.treeStale(5);

    expect(flag.pk).toBe(keys.tally(treeScope(5), '9999-12').pk);
    expect(flag.sk > '9999-12').toBe(true);
  });
});

describe('index attributes', () => {
  it('indexes a term bySlug under TAXONOMY#<taxonomy> / <slug>', () => {
    const index = keys.termIndex('tribe_events_cat', 'jazz');

    expect(index).toEqual({ gsi1pk: 'TAXONOMY#tribe_events_cat', gsi1sk: 'jazz' });
  });

  it('indexes a post bySlug under TYPE#<type> / <slug>', () => {
    const index = keys.postSlugIndex('event', 'jazz-night');

    expect(index).toEqual({ gsi1pk: 'TYPE#event', gsi1sk: 'jazz-night' });
  });

  it('indexes a post byStart under TYPE#<type> / <sort date>#<padded id>', () => {
    const index = keys.postDateIndex('event', '2027-01-15 20:00:00', 42);

    expect(index).toEqual({ gsi2pk: 'TYPE#event', gsi2sk: '2027-01-15 20:00:00#000000000042' });
  });

  it('indexes an event byEnd under TYPE#event / <local end>#<padded id>', () => {
    const index = keys.eventEndIndex('2027-01-15 23:00:00', 42);

    expect(index).toEqual({ gsi3pk: 'TYPE#event', gsi3sk: '2027-01-15 23:00:00#000000000042' });
  });

  it('indexes a link byAssignment under <KIND>#<target> / <local start>#<padded event id>', () => {
    const index = keys.linkIndex('ORGANIZER', 8, '2027-01-15 20:00:00', 42);

    expect(index).toEqual({ gsi4pk: 'ORGANIZER#8', gsi4sk: '2027-01-15 20:00:00#000000000042' });
  });
});

describe('partitions and prefixes used by queries', () => {
  it('names the bySlug partition of a taxonomy as termIndex writes it', () => {
    const partition = keys.taxonomyPartition('post_tag');

    expect(partition).toBe(keys.termIndex('post_tag', 'x').gsi1pk);
  });

  it('names the partition of a post type as the bySlug and byStart attributes write it', () => {
    const partition = keys.typePartition('venue');

    expect(partition).toBe(keys.postSlugIndex('venue', 'x').gsi1pk);
    expect(partition).toBe(keys.postDateIndex('venue', '2027-01-01 00:00:00', 1).gsi2pk);
  });

  it('names the byEnd partition of events as the events partition', () => {
    const partition = keys.typePartition('event');

    expect(partition).toBe(keys.eventEndIndex('2027-01-01 00:00:00', 1).gsi3pk);
  });

  it('names the byAssignment partition of a target as linkIndex writes it', () => {
    const partition = keys.assignmentPartition('TERM', 3);

    expect(partition).toBe(keys.linkIndex('TERM', 3, '2027-01-01 00:00:00', 9).gsi4pk);
  });

  it('names the tally partition of a scope as tally writes it', () => {
    const partition = keys.tallyPartition(featuredScope);

    expect(partition).toBe(keys.tally(featuredScope, '2027-01').pk);
  });

  it('gives a link prefix per kind that the link sort keys of that kind start with', () => {
    const prefix = keys.linkPrefix('TERM');

    expect(prefix).toBe('LINK#TERM#');
    expect(keys.link(7, 'TERM', 3).sk.startsWith(prefix)).toBe(true);
    expect(keys.link(7, 'VENUE', 3).sk.startsWith(prefix)).toBe(false);
  });

  it('gives a link prefix without a kind that every link sort key starts with', () => {
    const prefix = keys.linkPrefix();

    expect(prefix).toBe('LINK#');
    expect(
      (['TERM', 'VENUE', 'ORGANIZER'] as const).every((k) => keys.link(7, k, 3).sk.startsWith(prefix)),
    ).toBe(true);
  });
});

describe('zero padding of IDs in sort keys', () => {
  const ids = [1, 2, 9, 10, 11, 99, 100, 1_000, 12_345, 999_999_999_999];
  const sortedAsStrings = (sks: string[]) => [...sks].sort();

  it('pads IDs to twelve digits', () => {
    const sk = keys.postDateIndex('venue', '2026-01-01 10:00:00', 7).gsi2sk;

    expect(sk.split('#')[1]).toBe('000000000007');
  });

  it('orders byStart keys of one sort date by numeric ID', () => {
    const sks = ids.map((id) => keys.postDateIndex('event', '2027-01-15 20:00:00', id).gsi2sk);

    expect(sortedAsStrings(sks)).toEqual(sks);
  });

  it('orders byEnd keys of one end time by numeric ID', () => {
    const sks = ids.map((id) => keys.eventEndIndex('2027-01-15 23:00:00', id).gsi3sk);

    expect(sortedAsStrings(sks)).toEqual(sks);
  });

  it('orders byAssignment keys of one start time by numeric event ID', () => {
    const sks = ids.map((id) => keys.linkIndex('TERM', 3, '2027-01-15 20:00:00', id).gsi4sk);

    expect(sortedAsStrings(sks)).toEqual(sks);
  });

  it('orders by the date first: a later date sorts after, whatever the IDs', () => {
    const early = keys.postDateIndex('event', '2027-01-15 20:00:00', 999).gsi2sk;
    const late = keys.postDateIndex('event', '2027-01-15 20:00:01', 1).gsi2sk;

    expect(early < late).toBe(true);
  });
});

describe('term name guard', () => {
  it('keys the guard as TERMNAME#<taxonomy>#<name> / GUARD', () => {
    const key = keys.termNameGuard('tribe_events_cat', 'music');

    expect(key).toEqual({ pk: 'TERMNAME#tribe_events_cat#music', sk: 'GUARD' });
  });

  it('folds the name to lower case', () => {
    const key = keys.termNameGuard('post_tag', 'Late NIGHT');

    expect(key.pk).toBe('TERMNAME#post_tag#late night');
  });

  it('ignores leading and trailing whitespace', () => {
    const key = keys.termNameGuard('post_tag', ' \t Outdoor \n');

    expect(key).toEqual(keys.termNameGuard('post_tag', 'outdoor'));
  });

  it('gives names differing only in case and surrounding spaces one guard', () => {
    const names = ['Jazz', 'JAZZ', ' jazz', 'jAzZ '];

    const pks = new Set(names.map((n) => keys.termNameGuard('tribe_events_cat', n).pk));

    expect(pks.size).toBe(1);
  });

  it('keeps one guard per taxonomy: a category and a tag may share a name', () => {
    const category = keys.termNameGuard('tribe_events_cat', 'Outdoor');
    const tag = keys.termNameGuard('post_tag', 'Outdoor');

    expect(category.pk).not.toBe(tag.pk);
  });
});

describe('linkTarget', () => {
  it('names the term item for a TERM link', () => {
    const key = keys.linkTarget('TERM', 5);

    expect(key).toEqual(keys.term(5));
  });

  it('names the post item for a VENUE link', () => {
    const key = keys.linkTarget('VENUE', 5);

    expect(key).toEqual(keys.post(5));
  });

  it('names the post item for an ORGANIZER link', () => {
    const key = keys.linkTarget('ORGANIZER', 5);

    expect(key).toEqual({ pk: 'POST#5', sk: 'POST' });
  });
});

describe('rate counts', () => {
  it('keys a counter by kind, scope and subject, one item per window (its length and start)', () => {
    const key = keys.rateCount('REG', 'email', 'ab12', { start: 1_800_000_000, seconds: 3600 });

    expect(key).toEqual({ pk: 'RATE#REG#email#ab12', sk: 'W3600#1800000000' });
  });
});
