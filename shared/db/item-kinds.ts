import { linkedScope, treeScope, venueTreeScope } from '../domain/tallies';
import { keys } from './keys';
import { TABLE } from './table';

/**
 * Every kind of item of the single table, declared once as data: its key patterns, what it holds and
 * the index keys it carries. docs/data-model.md's Items table is rendered from this list (`npm run plan
 * -- --write docs/data-model.md`), and test/unit/item-kinds.test.ts holds each pattern to the builders
 * of keys.ts: it fills the patterns with an example's values and compares them with what the builders
 * make of the same values, and it fails when a builder of keys.ts is used by no kind. So the table
 * cannot say one thing while the code writes another.
 *
 * Patterns name their parts in angle brackets (`TERM#<id>`); `<padded id>` is an ID zero-padded to
 * twelve digits, so that sort keys order by number. Index sort keys of events hold event-local wall
 * times (`Y-m-d H:i:s` in the event's own zone), because list windows compare wall times (reference
 * §4.3).
 */

type IndexName = keyof typeof TABLE.indexes;
/** An item's key and index attributes, as the builders of keys.ts make them. */
export type KeyAttributes = Record<string, string | undefined>;

export interface IndexKeys {
  index: IndexName;
  pk: string;
  sk: string;
  /** When the item carries these keys (if not always), and what a reader of the table needs to know. */
  note?: string;
}

export interface ItemKind {
  /** The table's first column. */
  item: string;
  pk: string;
  sk: string;
  /** Who writes the sort key when keys.ts does not (a library's records). */
  skBy?: string;
  /** What the item holds and why it exists (Markdown). */
  holds: string;
  indexes?: IndexKeys[];
  /**
   * The parts' values and the attributes keys.ts builds for them; every declared index is carried by
   * at least one example. A kind with `skBy` builds its partition key alone.
   */
  examples: { values: Record<string, string>; attributes: () => KeyAttributes }[];
}

const START = '2031-03-12 19:00:00';
const END = '2031-03-12 22:00:00';
const DUE = '2031-03-01T12:00:00.000Z';
const DUE_MS = Date.parse(DUE);
/** ID 7 as sort keys hold it. */
const P7 = '000000000007';
const P12 = '000000000012';

export const ITEM_KINDS: ItemKind[] = [
  {
    item: 'ID sequence',
    pk: 'COUNTER',
    sk: '<sequence>',
    holds:
      '`value`, the last number handed out (atomic `ADD`): `post` (events, venues, organizers and tickets share it, as in WordPress), `term`, `webhook`, `import`',
    examples: [
      { values: { sequence: 'post' }, attributes: () => keys.counter('post') },
      { values: { sequence: 'import' }, attributes: () => keys.counter('import') },
    ],
  },
  {
    item: 'Term',
    pk: 'TERM#<id>',
    sk: 'TERM',
    holds:
      'a category (`tribe_events_cat`) or tag (`post_tag`): its fields and its counts of events (`countPublic`, `countAll`)',
    indexes: [
      { index: 'bySlug', pk: 'TAXONOMY#<taxonomy>', sk: '<slug>' },
      {
        index: 'byStart',
        pk: 'TAXONOMY#<taxonomy>',
        sk: '<sort name> <padded id>',
        note: 'name order, only for names `termSortName` can order ([term order](#term-order-and-npm-run-reindex)); removed with the delete tombstone',
      },
      {
        index: 'byEnd',
        pk: 'INUSE#public#<taxonomy>',
        sk: '<sort name> <padded id>',
        note: 'while its public count is above zero ([terms in use](#terms-in-use))',
      },
      {
        index: 'byAssignment',
        pk: 'INUSE#all#<taxonomy>',
        sk: '<sort name> <padded id>',
        note: "while its editors' count is above zero",
      },
    ],
    examples: [
      {
        values: { id: '12', taxonomy: 'post_tag', slug: 'outdoor', 'sort name': 'outdoor', 'padded id': P12 },
        attributes: () => {
          // term-use.ts sets the in-use orders' sort keys to the name order's (terms.ts termNameKeys).
          const name = keys.termNameIndex('post_tag', 'outdoor', 12);
          return {
            ...keys.term(12),
            ...keys.termIndex('post_tag', 'outdoor'),
            ...name,
            gsi3pk: keys.termInUsePartition('post_tag', 'public'),
            gsi3sk: name.gsi2sk,
            gsi4pk: keys.termInUsePartition('post_tag', 'all'),
            gsi4sk: name.gsi2sk,
          };
        },
      },
    ],
  },
  {
    item: 'Term totals',
    pk: 'COUNT#<taxonomy>',
    sk: 'TERMS#<shard>',
    holds:
      "`terms` of the taxonomy and how many are `unordered` (lack a sort name), `ADD` in the term's create / rename / delete transaction; `inUsePublic` / `inUseAll`, terms in use, `ADD` by the in-use sync; 10 shards summed on read, so that concurrent term creates do not collide",
    examples: [
      {
        values: { taxonomy: 'tribe_events_cat', shard: '3' },
        attributes: () => keys.termTotals('tribe_events_cat', 3),
      },
    ],
  },
  {
    item: 'Post (event, venue, organizer)',
    pk: 'POST#<id>',
    sk: 'POST',
    holds:
      "the whole record (a record with a `deleting` tombstone reads as gone); an event's `tickets`: how many tickets it has, moved by the ticket writes",
    indexes: [
      { index: 'bySlug', pk: 'TYPE#<type>', sk: '<slug>' },
      {
        index: 'byStart',
        pk: 'TYPE#<type>',
        sk: '<sort date>#<padded id>',
        note: 'the sort date is the event-local start for events, the UTC publication date otherwise',
      },
      { index: 'byEnd', pk: 'TYPE#event', sk: '<local end>#<padded id>', note: 'events only' },
      {
        index: 'byAssignment',
        pk: 'FEATURED',
        sk: '<local start>#<padded id>',
        note: 'featured events only, set and removed with the record in its own write: the featured listing reads these whole records; `npm run reindex` rebuilds them',
      },
    ],
    examples: [
      {
        values: {
          id: '7',
          type: 'event',
          slug: 'jazz-night',
          'sort date': START,
          'local start': START,
          'local end': END,
          'padded id': P7,
        },
        attributes: () => ({
          ...keys.post(7),
          ...keys.postSlugIndex('event', 'jazz-night'),
          ...keys.postDateIndex('event', START, 7),
          ...keys.eventEndIndex(END, 7),
          ...keys.featuredIndex(true, START, 7),
        }),
      },
      {
        values: {
          id: '4',
          type: 'venue',
          slug: 'town-hall',
          'sort date': '2031-01-05 09:30:00',
          'padded id': '000000000004',
        },
        attributes: () => ({
          ...keys.post(4),
          ...keys.postSlugIndex('venue', 'town-hall'),
          ...keys.postDateIndex('venue', '2031-01-05 09:30:00', 4),
          ...keys.featuredIndex(false, '2031-01-05 09:30:00', 4),
        }),
      },
    ],
  },
  {
    item: 'Link (event → term, venue, organizer)',
    pk: 'POST#<event id>',
    sk: 'LINK#<kind>#<id>',
    holds:
      "an event's assignment to a term, venue or organizer (`<kind>` `TERM`, `VENUE` or `ORGANIZER`), carrying the event's filter row",
    indexes: [{ index: 'byAssignment', pk: '<kind>#<id>', sk: '<local start>#<padded event id>' }],
    examples: [
      {
        values: { 'event id': '7', kind: 'VENUE', id: '4', 'local start': START, 'padded event id': P7 },
        attributes: () => ({ ...keys.link(7, 'VENUE', 4), ...keys.linkIndex('VENUE', 4, START, 7) }),
      },
    ],
  },
  {
    item: 'Series member',
    pk: 'POST#<event id>',
    sk: 'LINK#SERIES#<series id>',
    holds:
      "an occurrence's membership of its series, with the event's filter row, read like a link (`?series=`); written, moved and deleted with the event",
    indexes: [{ index: 'byAssignment', pk: 'SERIES#<series id>', sk: '<local start>#<padded event id>' }],
    examples: [
      {
        values: { 'event id': '7', 'series id': '3', 'local start': START, 'padded event id': P7 },
        attributes: () => ({ ...keys.seriesMember(7, 3), ...keys.linkIndex('SERIES', 3, START, 7) }),
      },
    ],
  },
  {
    item: 'Ticketed member',
    pk: 'POST#<event id>',
    sk: 'LINK#TICKETED#0',
    holds:
      "an event's membership of the ticketed events while it has a ticket, with its filter row, read like a link (`?ticketed=true`); written, rewritten and deleted like a link by the event's writes and by the ticket writes that take its count across zero ([tickets](tickets.md))",
    indexes: [{ index: 'byAssignment', pk: 'TICKETED#0', sk: '<local start>#<padded event id>' }],
    examples: [
      {
        values: { 'event id': '7', 'local start': START, 'padded event id': P7 },
        attributes: () => ({ ...keys.ticketedMember(7), ...keys.linkIndex('TICKETED', 0, START, 7) }),
      },
    ],
  },
  {
    item: 'Search word',
    pk: 'POST#<event id>',
    sk: 'WORD#<word>',
    holds:
      'one per distinct folded word of the texts, 2+ characters, none that starts another; written with the event when a text changes; `npm run reindex` rebuilds them',
    indexes: [
      {
        index: 'byAssignment',
        pk: 'WORD#<head>',
        sk: '<word>#<padded event id>',
        note: "`<head>`: the word's first two characters",
      },
    ],
    examples: [
      {
        values: { 'event id': '7', word: 'jazz', head: 'ja', 'padded event id': P7 },
        attributes: () => ({ ...keys.word(7, 'jazz'), ...keys.wordIndex('ja', 'jazz', 7) }),
      },
    ],
  },
  {
    item: 'Slug guard',
    pk: 'SLUG#<type or taxonomy>#<slug>',
    sk: 'GUARD',
    holds:
      "one slug per post type or taxonomy: the record's ID, written with `attribute_not_exists` in the record's transaction",
    examples: [
      {
        values: { 'type or taxonomy': 'venue', slug: 'blue-note' },
        attributes: () => keys.slugGuard('venue', 'blue-note'),
      },
    ],
  },
  {
    item: 'Term name guard',
    pk: 'TERMNAME#<taxonomy>#<folded name>',
    sk: 'GUARD',
    holds: 'one term name per taxonomy (the name trimmed and in lower case)',
    examples: [
      {
        values: { taxonomy: 'post_tag', 'folded name': 'late night' },
        attributes: () => keys.termNameGuard('post_tag', ' Late Night '),
      },
    ],
  },
  {
    item: 'Slug counter',
    pk: 'SLUGSEQ#<type or taxonomy>#<base>',
    sk: 'SEQ',
    holds:
      '`n`: the highest `-N` handed out for the base; moved by the write that takes it, drawn from by writers that lost a slug to a concurrent one',
    examples: [
      {
        values: { 'type or taxonomy': 'event', base: 'jazz-night' },
        attributes: () => keys.slugSequence('event', 'jazz-night'),
      },
    ],
  },
  {
    item: 'Status totals',
    pk: 'COUNT#<type>',
    sk: 'STATUS#<shard>',
    holds:
      'posts of a type per status (venue / organizer list totals); 10 shards summed on read, so that concurrent creates do not collide',
    examples: [
      { values: { type: 'organizer', shard: '3' }, attributes: () => keys.statusTotals('organizer', 3) },
    ],
  },
  {
    item: 'Month tally',
    pk: 'TALLY#<scope>',
    sk: '<start month>',
    holds:
      "event list totals and page placement: listable events of the scope starting that month (`YYYY-MM`), one attribute per audience, start day and days to the end day (domain/tallies.ts `tallyAttr`): `p05|0` = published, starting on the 5th, ending the same day; `~` marks a 23:59:59 start or end. Scopes `ALL`, `FEATURED`, `TICKETED` (events with a ticket), `TERM#<id>`, `VENUE#<id>`, `ORGANIZER#<id>`, and `TREE#<category>`: events of a category or of any descendant, each once, written for every ancestor-or-self of the event's categories",
    examples: [
      {
        values: { scope: 'TERM#5', 'start month': '2031-03' },
        attributes: () => keys.tally(linkedScope({ kind: 'TERM', id: 5 }), '2031-03'),
      },
      {
        values: { scope: 'TREE#9', 'start month': '2031-03' },
        attributes: () => keys.tally(treeScope(9), '2031-03'),
      },
    ],
  },
  {
    item: 'Day sums',
    pk: 'TALLY#<scope>',
    sk: 'S#<start month>',
    holds:
      "the same events per audience and start day alone (domain/tallies.ts `sumAttr`): `p05` = published events starting on the 5th, whatever their end, and the long ones (ending more than 31 days after their start day) by end day too, in the detail form: small whatever the number of events. A list counts each month of its window from these and reads a month's detail item only when an end bound is within 31 days of its days (`needsDetail`): the default listing, only the last one or two months of its 24. `S#` sorts after the month keys and before a pair's, so one range read returns only sums",
    examples: [
      {
        values: { scope: 'VENUE#4', 'start month': '2031-03' },
        attributes: () => keys.tallySums(linkedScope({ kind: 'VENUE', id: 4 }), '2031-03'),
      },
    ],
  },
  {
    item: 'Pair tally',
    pk: 'TALLY#VENUE#<venue>',
    sk: 'TREE#<category>#<start month>',
    holds:
      "the month tally of the venue's events in a category's subtree, for `categories=<c>&venue=<v>`; in the venue's partition after its months, so that a venue delete takes them along",
    examples: [
      {
        values: { venue: '4', category: '9', 'start month': '2031-03' },
        attributes: () => keys.tally(venueTreeScope(4, 9), '2031-03'),
      },
    ],
  },
  {
    item: 'Pair day sums',
    pk: 'TALLY#VENUE#<venue>',
    sk: 'TREE#<category>#S#<start month>',
    holds: 'the day sums of the same pair',
    examples: [
      {
        values: { venue: '4', category: '9', 'start month': '2031-03' },
        attributes: () => keys.tallySums(venueTreeScope(4, 9), '2031-03'),
      },
    ],
  },
  {
    item: 'Stale subtree',
    pk: 'TALLY#TREE#<category>',
    sk: 'STALE',
    holds:
      "a re-parent or a category delete made this category's subtree tallies, its pair tallies included, wrong: its lists read the links until `npm run reindex` rebuilds them and drops the flag; `STALE` sorts after every month key, so tally reads never see it",
    examples: [{ values: { category: '9' }, attributes: () => keys.treeStale(9) }],
  },
  {
    item: 'Creation guard',
    pk: 'CREATED#<request hash>',
    sk: 'GUARD',
    holds:
      "the record a create with an Idempotency-Key made (the hash of operation, caller and key), written in the create's transaction; TTL `expiration`, 24 h",
    examples: [{ values: { 'request hash': '9f2c' }, attributes: () => keys.creationGuard('9f2c') }],
  },
  {
    item: 'Idempotency record',
    pk: 'IDEMPOTENCY#<operation>',
    sk: '<function>#<hash>',
    skBy: "Powertools'",
    holds: "Powertools' record of a create's answer, to answer a repeated Idempotency-Key (24 h TTL)",
    examples: [
      {
        values: { operation: 'createEvent' },
        attributes: () => ({ pk: keys.idempotencyPartition('createEvent') }),
      },
    ],
  },
  {
    item: 'Change-log entry',
    pk: 'CHANGES',
    sk: '<ISO time>#<writer>#<seq>',
    holds:
      "one per record a write changes, in the write's transaction: the change log (GET /changes), one partition in write order; TTL `expiration`, 35 days",
    examples: [
      {
        values: { 'ISO time': DUE, writer: '0a1b2c3d', seq: '000000' },
        attributes: () => keys.change(`${DUE}#0a1b2c3d#000000`),
      },
    ],
  },
  {
    item: 'Series',
    pk: 'SERIES#<series id>',
    sk: 'SERIES',
    holds:
      "a recurring series: its lines, template, horizon and journal ([recurrence](recurrence.md)); its ID is its first occurrence's event ID",
    indexes: [
      {
        index: 'bySlug',
        pk: 'SERIES',
        sk: '<padded series id>',
        note: 'every series, for the extend job',
      },
      {
        index: 'byStart',
        pk: 'JOURNAL',
        sk: '<due ISO time>#<padded series id>',
        note: 'while a journal is left, by when the finisher may take it up',
      },
    ],
    examples: [
      {
        values: { 'series id': '7', 'padded series id': P7, 'due ISO time': DUE },
        attributes: () => ({ ...keys.series(7), ...keys.seriesIndex(7), ...keys.journalIndex(7, DUE_MS) }),
      },
    ],
  },
  {
    item: 'Webhook',
    pk: 'WEBHOOKS',
    sk: '<padded id>',
    holds:
      'a webhook subscription ([webhooks](webhooks.md)); all in one partition, so the dispatcher reads them in one Query',
    examples: [{ values: { 'padded id': '000000000004' }, attributes: () => keys.webhook(4) }],
  },
  {
    item: 'Delivery',
    pk: 'WEBHOOK#<webhook id>',
    sk: 'DELIVERY#<message id>',
    holds: 'one delivery of a subscription, newest last',
    examples: [
      {
        values: { 'webhook id': '4', 'message id': 'msg_20310301T120000000Z_0a1b2c3d_000000' },
        attributes: () => keys.delivery(4, 'msg_20310301T120000000Z_0a1b2c3d_000000'),
      },
    ],
  },
  {
    item: 'Lane marker',
    pk: 'WHLANE#<webhook id>#<resource>#<record id>',
    sk: '<stream order>',
    holds:
      "a pending delivery of one record to one subscription: only the lowest is delivered, so a record's deliveries keep their order",
    examples: [
      {
        values: {
          'webhook id': '4',
          resource: 'events',
          'record id': '42',
          'stream order': '000000000000000001234',
        },
        attributes: () => keys.laneMarker(4, 'events#42', '000000000000000001234'),
      },
    ],
  },
  {
    item: 'Delivery job',
    pk: 'WHQUEUE',
    sk: '<due ISO time>#<webhook id>#<message id>',
    holds: 'a delivery job due at that time (the local queue; deployed, the dispatcher moves each to SQS)',
    examples: [
      {
        values: { 'due ISO time': DUE, 'webhook id': '4', 'message id': 'msg_1' },
        attributes: () => keys.job(DUE_MS, 4, 'msg_1'),
      },
    ],
  },
  {
    item: 'Scheduled post',
    pk: 'SCHEDULED',
    sk: '<date_utc>#<padded id>',
    holds:
      'a `future` post (event, venue, organizer) and when it is due: the publish job reads the due ones in one Query ([API guide](api-guide.md))',
    examples: [
      {
        values: { date_utc: '2031-03-12 20:00:00', 'padded id': P7 },
        attributes: () => keys.scheduled('2031-03-12 20:00:00', 7),
      },
    ],
  },
  {
    item: 'Import',
    pk: 'IMPORTS',
    sk: '<padded id>',
    holds:
      "a feed or CSV import, its options and its last run's report ([import and export](import-export.md))",
    examples: [{ values: { 'padded id': '000000000003' }, attributes: () => keys.importRecord(3) }],
  },
  {
    item: 'Imported event',
    pk: 'IMPORT#<import id>',
    sk: 'UID#<uid>',
    holds:
      "what an import made of a feed's UID: the event (a series' first occurrence) and a digest of what was written",
    examples: [
      {
        values: { 'import id': '3', uid: 'abc@example.org' },
        attributes: () => keys.imported(3, 'abc@example.org'),
      },
    ],
  },
  {
    item: 'Ticket',
    pk: 'TICKET#<id>',
    sk: 'TICKET',
    holds:
      'a ticket or RSVP of one event, with its seat counters (`sold`, `not_going`, `checked_in`); each its own partition, so that registrations for two tickets never collide ([tickets](tickets.md))',
    indexes: [{ index: 'bySlug', pk: 'TICKETS', sk: '<padded id>' }],
    examples: [
      {
        values: { id: '41', 'padded id': '000000000041' },
        attributes: () => ({ ...keys.ticket(41), ...keys.ticketIndex(41) }),
      },
    ],
  },
  {
    item: 'Attendee',
    pk: 'ATTENDEE#<id>',
    sk: 'ATTENDEE',
    holds: 'a registration for a ticket',
    indexes: [
      { index: 'bySlug', pk: 'ATTENDEES#T<ticket id>', sk: '<padded id>' },
      { index: 'byStart', pk: 'ATTENDEES#P<event id>', sk: '<padded id>' },
      { index: 'byEnd', pk: 'ATTENDEES', sk: '<padded id>' },
    ],
    examples: [
      {
        values: { id: '43', 'padded id': '000000000043', 'ticket id': '41', 'event id': '40' },
        attributes: () => ({ ...keys.attendee(43), ...keys.attendeeIndex(43, 41, 40) }),
      },
    ],
  },
  {
    item: 'Mail',
    pk: 'MAIL#<attendee id>',
    sk: '<kind>',
    holds:
      "an attendee's e-mail (`confirmation`, `promoted`) in the outbox, put in the registration's transaction: one item per attendee and kind, so never sent twice; `link_token`, the attendee's secret link, only until the mail is sent or has failed for good",
    indexes: [
      {
        index: 'bySlug',
        pk: 'MAILQUEUE',
        sk: '<due ISO time>#<padded attendee id>#<kind>',
        note: 'while it waits to be sent, removed once sent',
      },
    ],
    examples: [
      {
        values: {
          'attendee id': '43',
          kind: 'confirmation',
          'due ISO time': DUE,
          'padded attendee id': '000000000043',
        },
        attributes: () => ({
          ...keys.mail(43, 'confirmation'),
          ...keys.mailQueueIndex(DUE_MS, 43, 'confirmation'),
        }),
      },
    ],
  },
  {
    item: 'Rate count',
    pk: 'RATE#<what>#<scope>#<bucket>',
    sk: 'W<window seconds>#<window start>',
    holds:
      "how many requests of a kind (`REG`: anonymous registrations) one e-mail address or client address made in a fixed window, counted in the registration's transaction; it expires a day after its window (docs/tickets.md)",
    indexes: [],
    examples: [
      {
        values: {
          what: 'REG',
          scope: 'email',
          bucket: 'a1b2c3',
          'window seconds': '3600',
          'window start': '1796169600',
        },
        attributes: () => keys.rateCount('REG', 'email', 'a1b2c3', { start: 1796169600, seconds: 3600 }),
      },
    ],
  },
];

/** The attribute names of an index's keys. */
export const indexAttributes = (index: IndexName) => {
  const ix = TABLE.indexes[index];
  return { pk: ix.partitionKey, sk: ix.sortKey };
};

/** `pattern` with each `<part>` replaced by its value; a part without one throws. */
export function fillPattern(pattern: string, values: Record<string, string>): string {
  return pattern.replace(/<([^<>]+)>/g, (_all, part: string) => {
    const value = values[part];
    if (value === undefined) throw new Error(`no value for <${part}> in ${pattern}`);
    return value;
  });
}

const code = (s: string) => `\`${s}\``;

/** The Items table of docs/data-model.md: one row per kind. */
export function itemKindTable(): string {
  const rows = ITEM_KINDS.map((k) => [
    k.item,
    code(k.pk),
    k.skBy ? `${code(k.sk)} (${k.skBy})` : code(k.sk),
    k.holds,
    k.indexes?.length
      ? k.indexes
          .map((i) => `${i.index}: ${code(i.pk)} / ${code(i.sk)}${i.note ? ` — ${i.note}` : ''}`)
          .join('<br>')
      : '—',
  ]);
  return [
    '| Item | pk | sk | Holds | Indexed as |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`),
  ].join('\n');
}
