import type { LinkKind, MemberKind, PostType, Taxonomy } from '../domain/records';
import type { TallyScope } from '../domain/tallies';

/**
 * Every key format of the single table lives here. The kinds of item they make (key patterns, what
 * each holds, its index keys) are declared in item-kinds.ts, which docs/data-model.md's Items table is
 * generated from and test/unit/item-kinds.test.ts holds to these builders; access-patterns.ts declares
 * every Query that reads them.
 *
 * Index sort keys hold event-local wall times (`Y-m-d H:i:s` in the event's own zone), because list
 * windows compare wall times (reference §4.3); only the `utcEnd` attribute is UTC.
 */

/** Shards of the status totals: a write adds to one at random, a read sums them all. */
export const STATUS_SHARDS = 10;

const pad = (n: number) => String(n).padStart(12, '0');

export type Key = { pk: string; sk: string };

/**
 * A tally scope (domain/tallies.ts) as its keys spell it: the partition after `TALLY#` and, for a pair
 * scope, the prefix of its sort keys within that partition (its first scope's, so that a venue's
 * delete takes its pairs along). Existing tables hold these strings: they must not change.
 */
const tallyParts = (s: TallyScope): [string, string] => {
  switch (s.of) {
    case 'all':
      return ['ALL', ''];
    case 'featured':
      return ['FEATURED', ''];
    case 'ticketed':
      return ['TICKETED', ''];
    case 'link':
      return [`${s.kind}#${s.id}`, ''];
    case 'tree':
      return [`TREE#${s.category}`, ''];
    case 'venueTree':
      return [`VENUE#${s.venue}`, `TREE#${s.category}`];
  }
};

export const keys = {
  counter: (sequence: 'post' | 'term' | 'webhook' | 'import'): Key => ({ pk: 'COUNTER', sk: sequence }),

  term: (id: number): Key => ({ pk: `TERM#${id}`, sk: 'TERM' }),
  termIndex: (taxonomy: Taxonomy, slug: string) => ({ gsi1pk: `TAXONOMY#${taxonomy}`, gsi1sk: slug }),
  taxonomyPartition: (taxonomy: Taxonomy) => `TAXONOMY#${taxonomy}`,
  /** Name order of a taxonomy (byStart, whose post partitions are TYPE#...); a space sorts below any name. */
  termNameIndex: (taxonomy: Taxonomy, sortName: string, id: number) => ({
    gsi2pk: `TAXONOMY#${taxonomy}`,
    gsi2sk: `${sortName} ${pad(id)}`,
  }),
  /**
   * Terms in use (count above zero) of a taxonomy in name order, one index per count: the public count
   * on byEnd, the count editors see on byAssignment. The sort key follows the name (like gsi2sk); the
   * partition key is present only while the term is in use (repositories/term-use.ts).
   */
  termInUsePartition: (taxonomy: Taxonomy, scope: 'public' | 'all') => `INUSE#${scope}#${taxonomy}`,
  /** Sharded like the status totals, so that concurrent term creates do not collide. */
  termTotals: (taxonomy: Taxonomy, shard: number): Key => ({ pk: `COUNT#${taxonomy}`, sk: `TERMS#${shard}` }),
  termNameGuard: (taxonomy: Taxonomy, name: string): Key => ({
    pk: `TERMNAME#${taxonomy}#${name.trim().toLowerCase()}`,
    sk: 'GUARD',
  }),

  post: (id: number): Key => ({ pk: `POST#${id}`, sk: 'POST' }),
  typePartition: (type: PostType) => `TYPE#${type}`,
  postSlugIndex: (type: PostType, slug: string) => ({ gsi1pk: `TYPE#${type}`, gsi1sk: slug }),
  postDateIndex: (type: PostType, sortDate: string, id: number) => ({
    gsi2pk: `TYPE#${type}`,
    gsi2sk: `${sortDate}#${pad(id)}`,
  }),
  eventEndIndex: (localEnd: string, id: number) => ({
    gsi3pk: 'TYPE#event',
    gsi3sk: `${localEnd}#${pad(id)}`,
  }),
  featuredPartition: 'FEATURED',
  /** A featured event's record in the featured partition of byAssignment; absent (undefined) otherwise. */
  featuredIndex: (featured: boolean, localStart: string, id: number) => ({
    gsi4pk: featured ? 'FEATURED' : undefined,
    gsi4sk: featured ? `${localStart}#${pad(id)}` : undefined,
  }),

  slugGuard: (type: PostType | Taxonomy, slug: string): Key => ({ pk: `SLUG#${type}#${slug}`, sk: 'GUARD' }),
  /** The counter of a slug base: the highest suffix (`base-N`) handed out for it. */
  slugSequence: (type: PostType | Taxonomy, base: string): Key => ({
    pk: `SLUGSEQ#${type}#${base}`,
    sk: 'SEQ',
  }),

  link: (eventId: number, kind: MemberKind, targetId: number): Key => ({
    pk: `POST#${eventId}`,
    sk: `LINK#${kind}#${targetId}`,
  }),
  linkPrefix: (kind?: LinkKind) => (kind ? `LINK#${kind}#` : 'LINK#'),
  linkIndex: (kind: MemberKind, targetId: number, localStart: string, eventId: number) => ({
    gsi4pk: `${kind}#${targetId}`,
    gsi4sk: `${localStart}#${pad(eventId)}`,
  }),
  assignmentPartition: (kind: MemberKind, targetId: number) => `${kind}#${targetId}`,
  /** The record an event links to: a term or a post. */
  linkTarget: (kind: LinkKind, id: number): Key => (kind === 'TERM' ? keys.term(id) : keys.post(id)),

  /** Status totals are spread over shards so that concurrent creates of one type do not collide. */
  statusTotals: (type: PostType, shard: number): Key => ({ pk: `COUNT#${type}`, sk: `STATUS#${shard}` }),
  tallyPartition: (scope: TallyScope) => `TALLY#${tallyParts(scope)[0]}`,
  /** A pair scope (venue + subtree) keeps its months in its first scope's partition. */
  tally: (scope: TallyScope, month: string): Key => {
    const [own, sub] = tallyParts(scope);
    return { pk: `TALLY#${own}`, sk: sub ? `${sub}#${month}` : month };
  },
  /**
   * A scope's day sums of a month (domain/tallies.ts sumAttr): after its month keys (`S#` sorts after
   * digits) and before a pair's (`TREE#…`) or the stale flag, so one range read returns only sums.
   */
  tallySums: (scope: TallyScope, month: string): Key => {
    const [own, sub] = tallyParts(scope);
    return { pk: `TALLY#${own}`, sk: sub ? `${sub}#S#${month}` : `S#${month}` };
  },
  /** Sorts after every month key of the subtree's tally partition, so tally reads never return it. */
  treeStale: (categoryId: number): Key => ({
    pk: keys.tallyPartition({ of: 'tree', category: categoryId }),
    sk: 'STALE',
  }),

  /** The record a create made for one caller's Idempotency-Key (`request` hashes operation, caller, key). */
  creationGuard: (request: string): Key => ({ pk: `CREATED#${request}`, sk: 'GUARD' }),
  /** Partition of Powertools' idempotency records of one create operation (its sort key is theirs). */
  idempotencyPartition: (operationId: string) => `IDEMPOTENCY#${operationId}`,
  /** A recurring series (docs/recurrence.md); its ID is its first occurrence's event ID. */
  series: (seriesId: number): Key => ({ pk: `SERIES#${seriesId}`, sk: 'SERIES' }),
  /** An occurrence's membership of its series, read like a link (`?series=` through the links driver). */
  seriesMember: (eventId: number, seriesId: number): Key => keys.link(eventId, 'SERIES', seriesId),
  /** An event's membership of the ticketed events while it has a ticket, read like a link (`?ticketed=true`). */
  ticketedMember: (eventId: number): Key => keys.link(eventId, 'TICKETED', 0),
  /** Every series in one partition of bySlug, for the extend job. */
  seriesPartition: 'SERIES',
  seriesIndex: (seriesId: number) => ({ gsi1pk: 'SERIES', gsi1sk: pad(seriesId) }),
  /** Series whose journal is left, by when the finisher may take it up (sparse: only while there is one). */
  journalPartition: 'JOURNAL',
  journalIndex: (seriesId: number, dueMs: number) => ({
    gsi2pk: 'JOURNAL',
    gsi2sk: `${new Date(dueMs).toISOString()}#${pad(seriesId)}`,
  }),

  /** The change log is one partition, so that a page of it is one Query in write order. */
  changePartition: 'CHANGES',
  change: (position: string): Key => ({ pk: 'CHANGES', sk: position }),

  /** Webhooks (docs/webhooks.md): subscriptions, deliveries, per-record lanes, jobs and the stream position. */
  webhookPartition: 'WEBHOOKS',
  webhook: (id: number): Key => ({ pk: 'WEBHOOKS', sk: pad(id) }),
  deliveryPartition: (webhook: number) => `WEBHOOK#${webhook}`,
  deliveryPrefix: 'DELIVERY#',
  delivery: (webhook: number, id: string): Key => ({ pk: `WEBHOOK#${webhook}`, sk: `DELIVERY#${id}` }),
  lanePartition: (webhook: number, lane: string) => `WHLANE#${webhook}#${lane}`,
  laneMarker: (webhook: number, lane: string, order: string): Key => ({
    pk: `WHLANE#${webhook}#${lane}`,
    sk: order,
  }),
  jobPartition: 'WHQUEUE',
  job: (dueMs: number, webhook: number, delivery: string): Key => ({
    pk: 'WHQUEUE',
    sk: `${new Date(dueMs).toISOString()}#${webhook}#${delivery}`,
  }),

  /**
   * Scheduled posts (status `future`), one partition ordered by due time (the UTC publication date,
   * `Y-m-d H:i:s`): the publish job reads the due ones in one Query, no scan.
   */
  scheduledPartition: 'SCHEDULED',
  scheduled: (dateUtc: string, id: number): Key => ({ pk: 'SCHEDULED', sk: `${dateUtc}#${pad(id)}` }),

  /** Imports (docs/import-export.md): one partition of imports, one of imported UIDs per import. */
  importPartition: 'IMPORTS',
  importRecord: (id: number): Key => ({ pk: 'IMPORTS', sk: pad(id) }),
  importedPartition: (importId: number) => `IMPORT#${importId}`,
  importedPrefix: 'UID#',
  imported: (importId: number, uid: string): Key => ({ pk: `IMPORT#${importId}`, sk: `UID#${uid}` }),

  /** Tickets (docs/tickets.md): each its own partition, so that registrations for two tickets never collide. */
  ticket: (id: number): Key => ({ pk: `TICKET#${id}`, sk: 'TICKET' }),
  ticketsPartition: 'TICKETS',
  ticketIndex: (id: number) => ({ gsi1pk: 'TICKETS', gsi1sk: pad(id) }),
  attendee: (id: number): Key => ({ pk: `ATTENDEE#${id}`, sk: 'ATTENDEE' }),
  attendeesOfTicket: (ticketId: number) => `ATTENDEES#T${ticketId}`,
  attendeesOfEvent: (eventId: number) => `ATTENDEES#P${eventId}`,
  attendeesPartition: 'ATTENDEES',
  attendeeIndex: (id: number, ticketId: number, eventId: number) => ({
    gsi1pk: `ATTENDEES#T${ticketId}`,
    gsi1sk: pad(id),
    gsi2pk: `ATTENDEES#P${eventId}`,
    gsi2sk: pad(id),
    gsi3pk: 'ATTENDEES',
    gsi3sk: pad(id),
  }),

  /** A rate limit's counter (domain/rate-limits.ts): one subject's requests of one kind in one window. */
  rateCount: (
    what: string,
    scope: string,
    bucket: string,
    window: { start: number; seconds: number },
  ): Key => ({
    pk: `RATE#${what}#${scope}#${bucket}`,
    // The window's length too: a changed setting counts afresh rather than in a window of another length.
    sk: `W${window.seconds}#${window.start}`,
  }),
  /** The outbox of attendees' e-mails (docs/tickets.md): one item per attendee and kind, so never sent twice. */
  mail: (attendeeId: number, kind: string): Key => ({ pk: `MAIL#${attendeeId}`, sk: kind }),
  mailQueuePartition: 'MAILQUEUE',
  mailQueueIndex: (dueMs: number, attendeeId: number, kind: string) => ({
    gsi1pk: 'MAILQUEUE',
    gsi1sk: `${new Date(dueMs).toISOString()}#${pad(attendeeId)}#${kind}`,
  }),

  /** A word of an event's texts in the search index; `head` is the word's first two characters. */
  word: (eventId: number, word: string): Key => ({ pk: `POST#${eventId}`, sk: `WORD#${word}` }),
  wordPrefix: 'WORD#',
  wordIndex: (head: string, word: string, eventId: number) => ({
    gsi4pk: `WORD#${head}`,
    gsi4sk: `${word}#${pad(eventId)}`,
  }),
  wordPartition: (head: string) => `WORD#${head}`,
};
