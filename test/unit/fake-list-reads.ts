import { inBounds } from '../../shared/domain/date-bounds';
import {
  type EventData,
  type EventRecord,
  type EventRow,
  isTicketed,
  rowOf,
} from '../../shared/domain/event-record';
import { byStart, eventIndexWords } from '../../shared/domain/event-query';
import type { MemberKind, PostRecord, TermRecord } from '../../shared/domain/records';
import { dayKey, type TallyScope } from '../../shared/domain/tallies';
import type { ListReads } from '../../shared/services/events/list';

/**
 * An in-memory calendar behind the reads an event list makes (shared/services/events/list/reads.ts):
 * each read answers what its index would hold, and every call is recorded, so that tests can check
 * what a plan reads without DynamoDB.
 */

export interface FakeCalendar {
  categories: TermRecord[];
  tags: TermRecord[];
  posts: PostRecord[];
  events: EventRecord[];
  /** Events whose link items carry rows written before rows named their links (EventRow terms / posts). */
  oldRows?: Set<number>;
  /** Categories whose subtree tallies are flagged stale. */
  stale?: Set<number>;
}

export type Call = { read: keyof ListReads; arg?: unknown };

export function term(
  id: number,
  slug: string,
  parent = 0,
  taxonomy: TermRecord['taxonomy'] = 'tribe_events_cat',
) {
  return {
    id,
    taxonomy,
    name: slug,
    slug,
    description: '',
    parent,
    countPublic: 0,
    countAll: 0,
    created: '',
    modified: '',
    version: 1,
  } satisfies TermRecord;
}

export function post<D extends object>(
  over: Partial<PostRecord<D>> & Pick<PostRecord<D>, 'id' | 'type' | 'data'>,
) {
  return {
    status: 'publish',
    author: 'user-editor',
    slug: `post-${over.id}`,
    title: `Post ${over.id}`,
    description: '',
    excerpt: '',
    date: '2031-01-01 00:00:00',
    date_utc: '2031-01-01 00:00:00',
    modified: '2031-01-01 00:00:00',
    modified_utc: '2031-01-01 00:00:00',
    version: 1,
    sortDate: '2031-01-01 00:00:00',
    countPublic: 0,
    countAll: 0,
    ...over,
  } as PostRecord<D>;
}

const sortKey = (e: { start: string; eventId: number }) =>
  `${e.start}#${String(e.eventId).padStart(12, '0')}`;
const inRange = (k: string, r: { low: string; high: string }) => k >= r.low && k <= r.high;

/** A tally scope spelled as its keys spell it (test/unit/keys.test.ts pins those strings). */
export function scopeName(s: TallyScope): string {
  switch (s.of) {
    case 'all':
      return 'ALL';
    case 'featured':
      return 'FEATURED';
    case 'ticketed':
      return 'TICKETED';
    case 'link':
      return `${s.kind}#${s.id}`;
    case 'tree':
      return `TREE#${s.category}`;
    case 'venueTree':
      return `VENUE#${s.venue}/TREE#${s.category}`;
  }
}

/** The tally scopes an event counts in: every scope of domain/tallies.ts, spelled as scopeName spells them. */
function scopesOf(e: EventRecord, parentOf: Map<number, number>): Set<string> {
  const trees = new Set<number>();
  for (const c of e.data.categories) for (let x: number | undefined = c; x; x = parentOf.get(x)) trees.add(x);
  return new Set([
    'ALL',
    ...(e.data.featured ? ['FEATURED'] : []),
    ...(isTicketed(e) ? ['TICKETED'] : []),
    ...[...e.data.categories, ...e.data.tags].map((id) => `TERM#${id}`),
    ...e.data.venues.map((id) => `VENUE#${id}`),
    ...e.data.organizers.map((id) => `ORGANIZER#${id}`),
    ...[...trees].map((c) => `TREE#${c}`),
    ...e.data.venues.flatMap((v) => [...trees].map((c) => `VENUE#${v}/TREE#${c}`)),
  ]);
}

export function fakeReads(cal: FakeCalendar): { reads: ListReads; calls: Call[] } {
  const calls: Call[] = [];
  const parentOf = new Map(cal.categories.map((t) => [t.id, t.parent]));
  const terms = [...cal.categories, ...cal.tags];
  const records = new Map<number, PostRecord>(
    [...cal.posts, ...cal.events].map((p) => [p.id, p as PostRecord]),
  );
  const rowOfLink = (e: EventRecord): EventRow => {
    const row = rowOf(e);
    if (!cal.oldRows?.has(e.id)) return row;
    const { terms: _t, posts: _p, ...old } = row;
    return old;
  };
  const linked = (e: EventRecord, kind: MemberKind) =>
    kind === 'TERM'
      ? [...e.data.categories, ...e.data.tags]
      : kind === 'VENUE'
        ? e.data.venues
        : kind === 'SERIES'
          ? e.data.series
            ? [e.data.series.id]
            : []
          : kind === 'TICKETED'
            ? isTicketed(e)
              ? [0]
              : []
            : e.data.organizers;
  const linkedRows = (kind: MemberKind, target: number, range: { low: string; high: string }) =>
    cal.events
      .filter((e) => linked(e, kind).includes(target))
      .map(rowOfLink)
      .filter((r) => inRange(sortKey(r), range))
      .sort(byStart);

  const reads: ListReads = {
    async listTerms(taxonomy) {
      calls.push({ read: 'listTerms', arg: taxonomy });
      return terms.filter((t) => t.taxonomy === taxonomy);
    },
    async termIdsOfSlugs(taxonomy, slugs) {
      calls.push({ read: 'termIdsOfSlugs', arg: slugs });
      return new Map(
        slugs.flatMap((s) =>
          terms.filter((t) => t.taxonomy === taxonomy && t.slug === s).map((t) => [s, t.id]),
        ),
      );
    },
    async findTerms(taxonomy, refs) {
      calls.push({ read: 'findTerms', arg: refs });
      return refs.map((r) =>
        terms.find((t) => t.taxonomy === taxonomy && ('id' in r ? t.id === r.id : t.slug === r.slug)),
      );
    },
    async getPosts<D extends object>(ids: number[]) {
      calls.push({ read: 'getPosts', arg: ids });
      return new Map(ids.flatMap((id) => (records.has(id) ? [[id, records.get(id) as PostRecord<D>]] : [])));
    },
    async tallyDays(scope, who, b) {
      calls.push({ read: 'tallyDays', arg: scopeName(scope) });
      const days = new Map<string, number>();
      for (const e of cal.events)
        if (
          !e.data.hideFromListings &&
          e.status !== 'trash' &&
          (who === 'a' || e.status === 'publish') &&
          inBounds(b, e.data.start, e.data.end) &&
          scopesOf(e, parentOf).has(scopeName(scope))
        )
          days.set(dayKey(e.data.start), (days.get(dayKey(e.data.start)) ?? 0) + 1);
      const sorted = [...days].sort(([a], [b]) => (a < b ? -1 : 1));
      return { total: sorted.reduce((n, [, c]) => n + c, 0), days: sorted };
    },
    async treeIsStale(category) {
      calls.push({ read: 'treeIsStale', arg: category });
      return cal.stale?.has(category) ?? false;
    },
    async *eventsLinkedTo(kind, target, range) {
      calls.push({ read: 'eventsLinkedTo', arg: `${kind}#${target}` });
      yield* linkedRows(kind, target, range);
    },
    async *eventsLinkedToAny(kind, targets, range) {
      calls.push({ read: 'eventsLinkedToAny', arg: targets.map((t) => `${kind}#${t}`) });
      const rows = new Map(targets.flatMap((t) => linkedRows(kind, t, range)).map((r) => [r.eventId, r]));
      yield* [...rows.values()].sort(byStart);
    },
    async *eventsStartingBetween(range, _pageSize, featuredOnly = false) {
      calls.push({ read: 'eventsStartingBetween', arg: featuredOnly ? 'featured' : 'all' });
      yield* cal.events
        .filter((e) => (!featuredOnly || e.data.featured) && inRange(sortKey(rowOf(e)), range))
        .sort((a, b) => byStart(rowOf(a), rowOf(b)));
    },
    async existingLinks(links) {
      calls.push({ read: 'existingLinks', arg: links.length });
      return new Set(
        links
          .filter((l) => {
            const e = records.get(l.eventId) as EventRecord | undefined;
            return e?.type === 'event' && linked(e, l.kind).includes(l.id);
          })
          .map((l) => `${l.eventId}|${l.kind}#${l.id}`),
      );
    },
    async eventsWithWordStart(word) {
      calls.push({ read: 'eventsWithWordStart', arg: word });
      return new Set(
        cal.events.filter((e) => eventIndexWords(e).some((w) => w.startsWith(word))).map((e) => e.id),
      );
    },
  };
  return { reads, calls };
}

export type { EventData };
