import type { LinkKind, MemberKind, PostType, Taxonomy } from '../domain/records';
import { allScope, type TallyScope } from '../domain/tallies';
import { keys } from './keys';
import type { IndexQuery } from './query';
import { TABLE } from './table';

/**
 * Every Query the service makes, declared once (single-table style: the access patterns first, the
 * keys after them): the index, the partition key builder (keys.ts), the sort-key condition, the
 * attributes read. Repositories read through these (`queryIndex(pattern.query(...))`), and
 * docs/data-model.md's access-pattern table is rendered from them (`npm run plan -- --write docs/data-model.md`).
 * Reads by key (GetItem, BatchGetItem of records, guards, totals, tallies) use keys.ts directly.
 */

type Sort = NonNullable<IndexQuery['sort']>;
type StartRange = { low: string; high: string };

interface Declaration<A extends unknown[]> {
  /** What the pattern answers, for the table. */
  serves: string;
  index?: keyof typeof TABLE.indexes;
  partition: (...args: A) => string;
  sort?: (...args: A) => Sort;
  /** Attributes read; the whole item when absent. */
  attributes?: (...args: A) => string[];
  consistent?: boolean;
  descending?: boolean;
  /** Arguments the table shows the keys with. */
  example: A;
  /** The repository functions that read it. */
  usedBy: string;
}

export interface AccessPattern<A extends unknown[]> extends Declaration<A> {
  query: (...args: A) => Omit<IndexQuery, 'pageSize'>;
}

function pattern<A extends unknown[]>(d: Declaration<A>): AccessPattern<A> {
  return {
    ...d,
    query: (...args) => ({
      ...(d.index ? { index: d.index } : {}),
      partition: d.partition(...args),
      ...(d.sort ? { sort: d.sort(...args) } : {}),
      ...(d.attributes ? { attributes: d.attributes(...args) } : {}),
      ...(d.consistent ? { consistent: true } : {}),
      ...(d.descending ? { descending: true } : {}),
    }),
  };
}

const MARCH: StartRange = { low: '2031-03-01 00:00:00', high: '2031-03-31 23:59:59~' };

export const patterns = {
  eventsByStart: pattern({
    serves: 'events starting in a window, in start order (the event lists)',
    index: 'byStart',
    partition: (_r: StartRange) => keys.typePartition('event'),
    sort: (r) => ({ between: [r.low, r.high] }),
    example: [MARCH],
    usedBy: 'events.ts eventsStartingBetween',
  }),
  featuredByStart: pattern({
    serves: 'featured events starting in a window, whole records, in start order',
    index: 'byAssignment',
    partition: (_r: StartRange) => keys.featuredPartition,
    sort: (r) => ({ between: [r.low, r.high] }),
    example: [MARCH],
    usedBy: 'events.ts eventsStartingBetween',
  }),
  featuredIds: pattern({
    serves: 'IDs of the featured events (the reindex)',
    index: 'byAssignment',
    partition: () => keys.featuredPartition,
    attributes: () => ['id'],
    example: [],
    usedBy: 'events.ts featuredIndexIds',
  }),
  eventBySlug: pattern({
    serves: 'an event by slug, eventually consistent',
    index: 'bySlug',
    partition: (_slug: string) => keys.typePartition('event'),
    sort: (slug) => ({ between: [slug, slug] }),
    example: ['jazz-night'],
    usedBy: 'events.ts eventBySlugIndex',
  }),
  slugsWithPrefix: pattern({
    serves: 'records of a type or taxonomy whose slug starts with a base (free slugs)',
    index: 'bySlug',
    partition: (scope: { type: PostType } | { taxonomy: Taxonomy }, _base: string) =>
      'type' in scope ? keys.typePartition(scope.type) : keys.taxonomyPartition(scope.taxonomy),
    sort: (_scope, base) => ({ prefix: base }),
    example: [{ type: 'venue' }, 'town-hall'],
    usedBy: 'slug-claims.ts recordsWithSlugPrefix',
  }),
  postsNewestFirst: pattern({
    serves: 'venues or organizers, newest first',
    index: 'byStart',
    partition: (type: PostType) => keys.typePartition(type),
    descending: true,
    example: ['venue'],
    usedBy: 'posts.ts postsNewestFirst',
  }),
  eventsEndingAfter: pattern({
    serves: 'events ending after a wall time: their statuses and venues or organizers',
    index: 'byEnd',
    partition: (_from: string, _field: 'venues' | 'organizers') => keys.typePartition('event'),
    sort: (from) => ({ from }),
    attributes: (_from, field) => ['status', 'author', `data.${field}`, 'data.utcEnd'],
    example: ['2031-03-01 00:00:00', 'venues'],
    usedBy: 'links.ts upcomingLinkedIds',
  }),
  linkRowsOfTarget: pattern({
    serves:
      'filter rows of the events linked to a term, venue or organizer (or in a series, or ticketed: `TICKETED#0`), in start order',
    index: 'byAssignment',
    partition: (kind: MemberKind, target: number, _r: StartRange) => keys.assignmentPartition(kind, target),
    sort: (_kind, _target, r) => ({ between: [r.low, r.high] }),
    example: ['VENUE', 4, MARCH],
    usedBy: 'links.ts eventsLinkedTo, eventsLinkedToAny',
  }),
  eventIdsOfTarget: pattern({
    serves: 'IDs of every event linked to a term, venue or organizer',
    index: 'byAssignment',
    partition: (kind: MemberKind, target: number) => keys.assignmentPartition(kind, target),
    attributes: () => ['eventId'],
    example: ['TERM', 12],
    usedBy: 'links.ts eventIdsLinkedTo',
  }),
  linksOfEvent: pattern({
    serves: 'the terms, venues or organizers an event links to, strongly consistent',
    partition: (eventId: number, _kind: LinkKind) => keys.post(eventId).pk,
    sort: (_id, kind) => ({ prefix: keys.linkPrefix(kind) }),
    consistent: true,
    example: [7, 'TERM'],
    usedBy: 'links.ts linkedIds',
  }),
  eventsByWordStart: pattern({
    serves: 'IDs of the events with an indexed word a query word starts (search)',
    index: 'byAssignment',
    partition: (_word: string, head: string) => keys.wordPartition(head),
    sort: (word) => ({ prefix: word }),
    attributes: () => ['eventId'],
    example: ['jazz', 'ja'],
    usedBy: 'search-index.ts eventsWithWordStart',
  }),
  wordsOfEvent: pattern({
    serves: 'the search words an event holds, strongly consistent (the reindex)',
    partition: (eventId: number) => keys.post(eventId).pk,
    sort: () => ({ prefix: keys.wordPrefix }),
    attributes: () => ['sk'],
    consistent: true,
    example: [7],
    usedBy: 'search-index.ts storedWords',
  }),
  termsOfTaxonomy: pattern({
    serves: 'every term of a taxonomy (category filters, filtered term lists, the reindex)',
    index: 'bySlug',
    partition: (taxonomy: Taxonomy) => keys.taxonomyPartition(taxonomy),
    example: ['tribe_events_cat'],
    usedBy: 'terms.ts listTerms, term-order.ts rebuildTermOrder',
  }),
  termsByName: pattern({
    serves: 'terms of a taxonomy in name order, a page at a time',
    index: 'byStart',
    partition: (taxonomy: Taxonomy) => keys.taxonomyPartition(taxonomy),
    example: ['post_tag'],
    usedBy: 'terms.ts termsByName',
  }),
  termsInUsePublic: pattern({
    serves: 'terms in use by the public count, in name order',
    index: 'byEnd',
    partition: (taxonomy: Taxonomy) => keys.termInUsePartition(taxonomy, 'public'),
    example: ['post_tag'],
    usedBy: 'term-use.ts termsInUseByName',
  }),
  termsInUseAll: pattern({
    serves: "terms in use by the editors' count, in name order",
    index: 'byAssignment',
    partition: (taxonomy: Taxonomy) => keys.termInUsePartition(taxonomy, 'all'),
    example: ['post_tag'],
    usedBy: 'term-use.ts termsInUseByName',
  }),
  tallyMonths: pattern({
    serves: "a scope's month tallies or day sums for a run of months",
    partition: (scope: TallyScope, _from: string, _to: string) => keys.tallyPartition(scope),
    sort: (_scope, from, to) => ({ between: [from, to] }),
    example: [allScope, keys.tallySums(allScope, '2031-03').sk, keys.tallySums(allScope, '2033-02').sk],
    usedBy: 'tallies.ts tallyDays',
  }),
  tallyItemKeys: pattern({
    serves: "the keys of a scope's tally items, its pairs' too (rebuilds, deletes)",
    partition: (scope: TallyScope) => keys.tallyPartition(scope),
    attributes: () => ['pk', 'sk'],
    example: [allScope],
    usedBy: 'tallies.ts tallyKeys, deletes.ts',
  }),
  allSeries: pattern({
    serves: 'every recurring series: its horizon, end and journal (the extend job)',
    index: 'bySlug',
    partition: () => keys.seriesPartition,
    attributes: () => ['id', 'horizon', 'ended', 'journal'],
    example: [],
    usedBy: 'series.ts allSeries',
  }),
  dueSeriesWrites: pattern({
    serves: 'the series whose journal a write left and whose finisher is due (the finisher job)',
    index: 'byStart',
    partition: (_nowIso: string) => keys.journalPartition,
    sort: (nowIso: string) => ({ before: `${nowIso}~` }),
    attributes: () => ['id', 'gsi2sk'],
    example: ['2031-03-12T20:00:00.000Z'],
    usedBy: 'series.ts dueJournals',
  }),
  dueScheduled: pattern({
    serves: 'the scheduled (`future`) posts whose publication date has come (the publish job)',
    partition: (_nowUtc: string) => keys.scheduledPartition,
    sort: (nowUtc: string) => ({ before: `${nowUtc}#~` }),
    attributes: () => ['sk', 'id', 'type', 'date_utc'],
    consistent: true,
    example: ['2031-03-12 20:00:00'],
    usedBy: 'scheduled.ts dueScheduled',
  }),
  allImports: pattern({
    serves: 'every feed or CSV import (GET /imports, the re-sync timer)',
    partition: () => keys.importPartition,
    consistent: true,
    example: [],
    usedBy: 'imports.ts listImports',
  }),
  eventsOfImport: pattern({
    serves: 'the UIDs an import made events of, with their event IDs and digests',
    partition: (importId: number) => keys.importedPartition(importId),
    sort: () => ({ prefix: keys.importedPrefix }),
    consistent: true,
    example: [3],
    usedBy: 'imports.ts importedOf',
  }),
  changesAfter: pattern({
    serves:
      "the change log after a cursor, in write order (the change feed, the webhook dispatcher's catch-up)",
    partition: (_after: string) => keys.changePartition,
    sort: (after) => ({ after }),
    example: ['2031-03-01T12:00:00.000Z#0a1b2c3d#000000'],
    usedBy: 'changes.ts changesAfter',
  }),
  allTickets: pattern({
    serves: 'every ticket, in ID order (GET /tickets filters them: a site has tens or hundreds)',
    index: 'bySlug',
    partition: () => keys.ticketsPartition,
    example: [],
    usedBy: 'tickets.ts listTickets',
  }),
  attendeesOfTicket: pattern({
    serves: "a ticket's attendees in ID order (GET /attendees?ticket_id=, a ticket's attendees)",
    index: 'bySlug',
    partition: (ticketId: number) => keys.attendeesOfTicket(ticketId),
    example: [41],
    usedBy: 'tickets.ts listAttendees',
  }),
  attendeesOfEvent: pattern({
    serves: "an event's attendees in ID order (GET /attendees?post_id=)",
    index: 'byStart',
    partition: (eventId: number) => keys.attendeesOfEvent(eventId),
    example: [40],
    usedBy: 'tickets.ts listAttendees',
  }),
  allAttendees: pattern({
    serves: 'every attendee in ID order (GET /attendees for editors)',
    index: 'byEnd',
    partition: () => keys.attendeesPartition,
    example: [],
    usedBy: 'tickets.ts listAttendees',
  }),
  dueMail: pattern({
    serves: "attendees' e-mails waiting in the outbox, due by a time, earliest first (the mail sender)",
    index: 'bySlug',
    partition: (_dueBy: string) => keys.mailQueuePartition,
    sort: (dueBy) => ({ before: dueBy }),
    example: ['2031-03-01T12:00:00.000Z~'],
    usedBy: 'ticket-mail.ts dueMail',
  }),
  allWebhooks: pattern({
    serves: 'every webhook subscription, in ID order (GET /webhooks, the dispatcher)',
    partition: () => keys.webhookPartition,
    consistent: true,
    example: [],
    usedBy: 'webhooks.ts listWebhooks',
  }),
  deliveriesNewestFirst: pattern({
    serves: "a subscription's deliveries, newest first, before a cursor (GET /webhooks/{id}/deliveries)",
    partition: (webhook: number, _before?: string) => keys.deliveryPartition(webhook),
    sort: (_webhook, before) => (before ? { before } : { prefix: keys.deliveryPrefix }),
    descending: true,
    example: [4, keys.delivery(4, 'msg_20310301T120000000Z_0a1b2c3d_000000').sk],
    usedBy: 'webhook-deliveries.ts deliveriesOf',
  }),
  laneHead: pattern({
    serves:
      "the first pending deliveries of one record to one subscription, in stream order (the lane's turn)",
    partition: (webhook: number, lane: string) => keys.lanePartition(webhook, lane),
    consistent: true,
    example: [4, 'events#42'],
    usedBy: 'webhook-deliveries.ts laneHead',
  }),
  dueJobs: pattern({
    serves: 'webhook delivery jobs due by a time, earliest first (the local deliverer)',
    partition: (_dueBy: string) => keys.jobPartition,
    sort: (dueBy) => ({ before: dueBy }),
    consistent: true,
    example: ['2031-03-01T12:00:00.000Z~'],
    usedBy: 'webhook-deliveries.ts dueJobs',
  }),
};

const condition = (sort: Sort | undefined, descending?: boolean) => {
  const order = descending ? ', descending' : '';
  if (!sort) return `whole partition${order}`;
  if ('prefix' in sort) return `begins_with \`${sort.prefix}\`${order}`;
  if ('between' in sort) return `between \`${sort.between[0]}\` and \`${sort.between[1]}\`${order}`;
  if ('after' in sort) return `after \`${sort.after}\`${order}`;
  if ('before' in sort) return `before \`${sort.before}\`${order}`;
  return `from \`${sort.from}\`${order}`;
};

/** The access-pattern table of docs/data-model.md: one row per declared Query, keys from their examples. */
export function accessPatternTable(): string {
  const rows = Object.entries(patterns).map(([name, p]) => {
    const q = (p as AccessPattern<unknown[]>).query(...p.example);
    return [
      `\`${name}\``,
      p.serves,
      p.index ? `${p.index} (${TABLE.indexes[p.index].partitionKey})` : 'table',
      `\`${q.partition}\``,
      condition(q.sort, q.descending),
      q.attributes ? q.attributes.join(', ') : 'all',
      p.usedBy,
    ];
  });
  return [
    '| Pattern | Serves | Index | Partition (example) | Sort key | Reads | Used by |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`),
  ].join('\n');
}
