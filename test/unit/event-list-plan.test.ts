import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DomainError } from '../../shared/domain/errors';
import { type EventData, type EventRecord, rowOf } from '../../shared/domain/event-record';
import { byStart, geoMatch, matchesSearch, rowFilter } from '../../shared/domain/event-query';
import { pointOf } from '../../shared/domain/geo';
import { listWindow } from '../../shared/domain/list-window';
import { listStatuses } from '../../shared/domain/post-rules';
import type { User } from '../../shared/domain/roles';
import { canSeeLinked } from '../../shared/domain/visibility';
import { listEventRows } from '../../shared/services/events/list';
import { type EventListQuery, planEventList, type ScopePlan } from '../../shared/services/events/list';
import { type FakeCalendar, fakeReads, post, term } from './fake-list-reads';

/**
 * The event-list planner (shared/services/events/list/plan.ts) over the parameter space, and its
 * executors run against an in-memory calendar: every plan lists what a plain filter-sort-slice of the
 * calendar lists, through the driver the plan names, reading the tallies it names.
 */

const editor: User = { sub: 'user-editor', role: 'editor' };
const contributor: User = { sub: 'contributor-1', role: 'contributor' };
const CALLERS = { visitor: null, editor, contributor } as const;
const NOW = new Date('2031-03-01T12:00:00Z');

// Categories: music (1) with jazz (2) and rock (3) below it, food (4) alone. Tags 10, 11.
const categories = [term(1, 'music'), term(2, 'jazz', 1), term(3, 'rock', 1), term(4, 'food')];
const tags = [term(10, 'outdoor', 0, 'post_tag'), term(11, 'free', 0, 'post_tag')];
const posts = [
  post({ id: 20, type: 'venue', data: { geo_lat: 52.52, geo_lng: 13.4 } }),
  post({ id: 21, type: 'venue', data: {} }),
  post({ id: 22, type: 'venue', status: 'draft', data: { geo_lat: 52.5, geo_lng: 13.41 } }),
  post({ id: 30, type: 'organizer', data: {} }),
  post({ id: 31, type: 'organizer', data: {} }),
];

/** A small calendar from a seeded generator: every status, hidden and featured events, long ones, 23:59:59 starts. */
function calendar(): FakeCalendar {
  let s = 7;
  const rnd = (n: number) => ((s = (s * 1103515245 + 12345) % 2 ** 31), s % n);
  const pick = <T>(xs: readonly T[], most = 2) => [
    ...new Set(Array.from({ length: rnd(most + 1) }, () => xs[rnd(xs.length)]!)),
  ];
  const words = ['jazz night', 'quartet', 'street food', 'rock', 'open air'];
  const events: EventRecord[] = [];
  for (let i = 0; i < 70; i++) {
    const id = 100 + i;
    const day = new Date(Date.UTC(2031, 1, 20 + rnd(50)));
    const date = day.toISOString().slice(0, 10);
    const start = rnd(8) === 0 ? `${date} 23:59:59` : `${date} ${String(8 + rnd(12)).padStart(2, '0')}:00:00`;
    const endDay = new Date(day.getTime() + (rnd(6) === 0 ? rnd(40) : 0) * 86_400_000)
      .toISOString()
      .slice(0, 10);
    const end = `${endDay} 23:59:59`;
    const status = ['publish', 'publish', 'publish', 'draft', 'pending', 'private', 'future', 'trash'][
      rnd(8)
    ]!;
    events.push(
      post<EventData>({
        id,
        type: 'event',
        // About one event in four has tickets (their count kept on the record by the ticket writes).
        ...(id % 4 === 1 ? { tickets: 1 + (id % 3) } : {}),
        status,
        author: rnd(3) === 0 ? 'contributor-1' : 'user-editor',
        title: `${words[rnd(words.length)]} ${id}`,
        sortDate: start,
        data: {
          start,
          end,
          utcStart: start,
          utcEnd: end,
          timezone: 'UTC',
          timezoneAbbr: 'UTC',
          allDay: false,
          hideFromListings: rnd(10) === 0,
          featured: rnd(4) === 0,
          sticky: false,
          showMap: false,
          showMapLink: false,
          cost: { values: [] } as unknown as EventData['cost'],
          categories: pick([1, 2, 3, 4]),
          tags: pick([10, 11]),
          venues: pick([20, 21, 22], 1),
          organizers: pick([30, 31]),
          ...(i > 0 && rnd(6) === 0 ? { parent: 100 } : {}),
        },
      }) as EventRecord,
    );
  }
  return {
    categories,
    tags,
    posts,
    events,
    oldRows: new Set(events.filter((e) => e.id % 5 === 0).map((e) => e.id)),
  };
}

const CAL = calendar();

/** What the list holds, by brute force over the whole calendar. */
async function reference(q: EventListQuery, user: User | null): Promise<{ ids: number[]; total: number }> {
  const bounds = q.include ? undefined : await listWindow(q, NOW);
  const keep = rowFilter({
    statuses: listStatuses(q.status, user),
    bounds,
    featured: q.featured,
    postParent: q.post_parent,
    ticketed: q.ticketed,
  });
  const subtree = (ref: number | string) => {
    const root = categories.find((t) => t.id === ref || t.slug === ref)!.id;
    return categories.filter((t) => t.id === root || t.parent === root).map((t) => t.id);
  };
  const tagId = (ref: number | string) => tags.find((t) => t.id === ref || t.slug === ref)!.id;
  const any = (have: number[], want: number[]) => want.some((id) => have.includes(id));
  const posts = new Map(CAL.posts.map((p) => [p.id, p]));
  const list = CAL.events
    .filter((e) => keep(rowOf(e)))
    .filter((e) => !q.include || q.include.includes(e.id))
    .filter((e) => !q.categories || any(e.data.categories, q.categories.flatMap(subtree)))
    .filter((e) => !q.tags || any(e.data.tags, q.tags.map(tagId)))
    .filter((e) => !q.venue || any(e.data.venues, q.venue))
    .filter((e) => !q.organizer || any(e.data.organizers, q.organizer))
    .filter((e) => !q.search || matchesSearch(e, q.search))
    .filter(
      (e) =>
        (q.geoloc === undefined && q.geoloc_lat === undefined) ||
        geoMatch(
          e.data.venues.flatMap((v) => {
            const venue = posts.get(v);
            const point = venue && canSeeLinked(venue, user) ? pointOf(venue.data) : undefined;
            return point ? [point] : [];
          }),
          q,
        ),
    )
    .sort((a, b) => byStart(rowOf(a), rowOf(b)));
  const page = q.page ?? 1;
  const perPage = q.per_page ?? 10;
  return { ids: list.slice((page - 1) * perPage, page * perPage).map((e) => e.id), total: list.length };
}

/** The key of a planned scope in this calendar (a category is its subtree when it has children). */
function scopeKey(s: ScopePlan): string {
  const cat = (ref: number | string) => categories.find((t) => t.id === ref || t.slug === ref)!.id;
  const tree = (ref: number | string) =>
    categories.some((t) => t.parent === cat(ref)) ? `TREE#${cat(ref)}` : `TERM#${cat(ref)}`;
  switch (s.of) {
    case 'all':
      return 'ALL';
    case 'featured':
      return 'FEATURED';
    case 'ticketed':
      return 'TICKETED';
    case 'category':
      return tree(s.ref);
    case 'tag':
      return `TERM#${tags.find((t) => t.id === s.ref || t.slug === s.ref)!.id}`;
    case 'venue':
      return `VENUE#${s.id}`;
    case 'organizer':
      return `ORGANIZER#${s.id}`;
    case 'category+venue':
      return `VENUE#${s.venue}/TREE#${cat(s.category)}`;
  }
}

/** The problem codes of the 400 a call throws. */
function problems(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    const details = (e as DomainError).data?.details as Record<string, { code: string }>;
    return Object.values(details).map((p) => p.code);
  }
  return [];
}

/** A parameter given in about one query of four, so that plain queries (the tallied ones) come up too. */
const option = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: arb, weight: 1 });
const someOf = <T>(xs: T[]) => fc.subarray(xs, { minLength: 1, maxLength: 2 });

const queries = fc.record({
  categories: option(someOf<number | string>(['music', 'jazz', 2, 'food'])),
  tags: option(someOf<number | string>(['outdoor', 11])),
  venue: option(someOf([20, 21])),
  organizer: option(someOf([30, 31])),
  featured: option(fc.boolean()),
  ticketed: option(fc.boolean()),
  search: option(fc.constantFrom('jazz', 'night qua', 'x', 'street food')),
  include: option(fc.subarray([100, 101, 102, 110, 120, 130, 140, 150, 160], { minLength: 1 })),
  strict_dates: option(fc.constant(true)),
  window: fc.constantFrom('default', 'march', 'days'),
  post_parent: option(fc.constant(100)),
  geo: fc.constantFrom('none', 'has', 'none-there', 'near'),
  page: fc.integer({ min: 1, max: 4 }),
  per_page: fc.integer({ min: 1, max: 6 }),
  caller: fc.constantFrom('visitor', 'editor', 'contributor'),
  publishOnly: fc.boolean(),
});

type Drawn = typeof queries extends fc.Arbitrary<infer T> ? T : never;

function queryOf(d: Drawn): EventListQuery {
  const { window, geo, caller, publishOnly, ...rest } = d;
  const q: EventListQuery = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  if (window === 'march') Object.assign(q, { start_date: '2031-03-01', end_date: '2031-03-31' });
  if (window === 'days') Object.assign(q, { start_date: '2031-03-10', end_date: '2031-03-12 23:59:59' });
  if (geo === 'has') q.geoloc = true;
  if (geo === 'none-there') q.geoloc = false;
  if (geo === 'near') Object.assign(q, { geoloc_lat: 52.52, geoloc_lng: 13.4, geoloc_radius: 5 });
  if (publishOnly && caller === 'editor') q.status = ['publish'];
  return q;
}

describe('planEventList', () => {
  const plan = (q: EventListQuery, user: User | null = null) => planEventList(q, { user });

  it('lists the default window from the every-event tally, page 1 read with the tallies', () => {
    expect(plan({})).toMatchObject({
      driver: 'tally',
      tallies: [{ of: 'all' }],
      early: true,
      pageStart: 'tallies',
      window: 'days',
      who: 'p',
    });
    expect(plan({ page: 3 })).toMatchObject({ driver: 'tally', early: false });
  });

  it('counts one category with one venue from their pair tally, and compares the two filters', () => {
    expect(plan({ categories: ['jazz'], venue: [4] })).toMatchObject({
      driver: 'tally',
      tallies: [
        { of: 'category+venue', category: 'jazz', venue: 4 },
        { of: 'category', ref: 'jazz' },
        { of: 'venue', id: 4 },
      ],
      staleFlag: 'jazz',
      checks: ['venue'],
    });
  });

  it('reads the links of the smallest filter when no tally counts the list', () => {
    expect(plan({ categories: ['jazz', 'rock'], tags: ['outdoor'] })).toMatchObject({
      driver: 'links',
      tallies: [{ of: 'tag', ref: 'outdoor' }],
      pageStart: 'sorted',
    });
    expect(plan({ categories: ['jazz'], tags: ['outdoor'], strict_dates: true })).toMatchObject({
      driver: 'links',
      tallies: [],
    });
  });

  it('lets include, then a search word, lead; one-character searches filter the window', () => {
    expect(plan({ include: [1], search: 'jazz', categories: ['jazz'] })).toMatchObject({
      driver: 'ids',
      window: 'none',
      refine: ['search'],
    });
    expect(plan({ search: 'jazz', venue: [4] })).toMatchObject({ driver: 'search', tallies: [] });
    expect(plan({ search: 'x' })).toMatchObject({ driver: 'window', refine: ['search'] });
  });

  it('reads the window when no tally counts the audience or the filters', () => {
    expect(plan({}, contributor)).toMatchObject({ driver: 'window' });
    expect(plan({}, contributor).who).toBeUndefined();
    expect(plan({ featured: false })).toMatchObject({ driver: 'window' });
    expect(plan({ post_parent: 5 })).toMatchObject({ driver: 'window', checks: ['post_parent'] });
    expect(plan({ geoloc: true })).toMatchObject({ driver: 'window', refine: ['geoloc'] });
    expect(plan({ featured: true })).toMatchObject({ driver: 'tally', tallies: [{ of: 'featured' }] });
  });

  it('names one target once however often it is repeated, but venue IDs as given', () => {
    expect(plan({ tags: [10, 10] })).toMatchObject({ driver: 'tally', tallies: [{ of: 'tag', ref: 10 }] });
    expect(plan({ venue: [4, 4] })).toMatchObject({ driver: 'links' });
  });

  it("reads ticketed=true from the ticketed events' rows, counted and placed by their own tally (issue 42)", () => {
    expect(plan({ ticketed: true })).toMatchObject({
      driver: 'tally',
      filters: [{ param: 'ticketed', refs: [] }],
      tallies: [{ of: 'ticketed' }],
      early: true,
      pageStart: 'tallies',
    });
    expect(plan({ ticketed: true, page: 3 })).toMatchObject({ driver: 'tally', early: false });
    // With another filter, the smaller of the two drives, each one's tally telling its size.
    expect(plan({ ticketed: true, categories: ['jazz'] })).toMatchObject({
      driver: 'links',
      tallies: [{ of: 'category', ref: 'jazz' }, { of: 'ticketed' }],
    });
    // No tally counts it with featured or with strict times: its rows are read in the window.
    expect(plan({ ticketed: true, featured: true })).toMatchObject({ driver: 'links', tallies: [] });
    expect(plan({ ticketed: true, strict_dates: true })).toMatchObject({ driver: 'links', tallies: [] });
  });

  it('counts ticketed=false alone as every event less the ticketed ones, reading the event partition', () => {
    expect(plan({ ticketed: false })).toMatchObject({
      driver: 'tally',
      filters: [],
      ticketed: false,
      tallies: [{ of: 'all' }, { of: 'ticketed' }],
      pageStart: 'tallies',
    });
    // No tally pairs it with a filter or with featured: those rows are filtered on their ticketed flag.
    expect(plan({ ticketed: false, tags: [10] })).toMatchObject({ driver: 'links' });
    expect(plan({ ticketed: false, featured: true })).toMatchObject({ driver: 'window', tallies: [] });
    expect(plan({ ticketed: false }, contributor)).toMatchObject({ driver: 'window' });
  });

  it('refuses what no plan can serve, before any read', () => {
    expect(problems(() => plan({ geoloc_lat: 1 }))).toEqual(['rest_missing_coordinate']);
    expect(problems(() => plan({ status: ['draft'] }))).toEqual(['rest_forbidden_status']);
  });
});

describe('the executors, on an in-memory calendar', () => {
  it('list what filtering, sorting and slicing the calendar lists, through the planned driver and tallies', async () => {
    const ran = new Set<string>();
    await fc.assert(
      fc.asyncProperty(queries, async (drawn) => {
        const q = queryOf(drawn);
        const user = CALLERS[drawn.caller];
        const planned = planEventList(q, { user });
        const { reads, calls } = fakeReads(CAL);

        const listed = await listEventRows(q, { user, root: 'http://x/cal/events/v1', now: NOW }, reads);

        const want = await reference(q, user);
        expect(listed.candidates.map((c) => c.row.eventId)).toEqual(want.ids);
        expect(listed.total).toBe(want.total);
        expect(listed.ran).toBe(planned.driver);
        ran.add(listed.ran);
        const tallied = calls.filter((c) => c.read === 'tallyDays').map((c) => c.arg);
        expect(tallied).toEqual(planned.tallies.map(scopeKey));
        expect(calls.some((c) => c.read === 'eventsWithWordStart')).toBe(planned.driver === 'search');
      }),
      { numRuns: 400, seed: 26 },
    );

    expect([...ran].sort()).toEqual(['ids', 'links', 'search', 'tally', 'window']);
  });

  it.each([
    [true, 'eventsLinkedToAny', ['TICKETED']],
    [false, 'eventsStartingBetween', ['ALL', 'TICKETED']],
  ] as const)(
    'list ticketed=%s page by page from the tallies and the rows they place, as the calendar holds it',
    async (ticketed, rows, tallies) => {
      for (const user of [null, editor])
        for (const window of ['default', 'march'] as const)
          for (let page = 1; page <= 6; page++) {
            const q: EventListQuery = {
              ticketed,
              page,
              per_page: 3,
              ...(window === 'march' ? { start_date: '2031-03-01', end_date: '2031-03-31' } : {}),
            };
            const { reads, calls } = fakeReads(CAL);

            const listed = await listEventRows(q, { user, root: '', now: NOW }, reads);

            const want = await reference(q, user);
            expect(listed.candidates.map((c) => c.row.eventId)).toEqual(want.ids);
            expect(listed.total).toBe(want.total);
            expect(listed.ran).toBe('tally');
            expect(calls.filter((c) => c.read === 'tallyDays').map((c) => c.arg)).toEqual(tallies);
            // Only the ticketed rows (true), or the event partition (false): never both (a page past
            // the end reads neither).
            if (want.ids.length > 0) expect(calls.map((c) => c.read)).toContain(rows);
            expect(calls.map((c) => c.read)).not.toContain(
              ticketed ? 'eventsStartingBetween' : 'eventsLinkedToAny',
            );
          }
      // The calendar has both kinds in the window, so these pages were not empty.
      expect((await reference({ ticketed }, null)).total).toBeGreaterThan(3);
    },
  );

  it('read a subtree flagged stale through its links, with the same page', async () => {
    const q: EventListQuery = { categories: ['music'], per_page: 4, page: 2 };
    const fresh = await listEventRows(q, { user: null, root: '', now: NOW }, fakeReads(CAL).reads);
    const { reads, calls } = fakeReads({ ...CAL, stale: new Set([1]) });

    const stale = await listEventRows(q, { user: null, root: '', now: NOW }, reads);

    expect(fresh.ran).toBe('tally');
    expect(stale.ran).toBe('links');
    expect(stale.candidates.map((c) => c.row.eventId)).toEqual(fresh.candidates.map((c) => c.row.eventId));
    expect(stale.total).toBe(fresh.total);
    expect(calls.map((c) => c.read)).toContain('eventsLinkedTo');
  });

  it('answer an unknown tag with its 400 before listing', async () => {
    const { reads } = fakeReads(CAL);

    const failed = await listEventRows({ tags: ['nope'] }, { user: null, root: '', now: NOW }, reads).catch(
      (e: unknown) => e,
    );

    expect(
      problems(() => {
        throw failed;
      }),
    ).toEqual(['rest_unknown_term']);
  });
});
