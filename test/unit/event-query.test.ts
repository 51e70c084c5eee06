import { describe, expect, it } from 'vitest';
import type { EventRecord, EventRow } from '../../shared/domain/event-record';
import {
  byStart,
  geoMatch,
  type LinkFilter,
  matchesSearch,
  pageOfCandidates,
  rowFilter,
  tallyScope,
  tallyWho,
} from '../../shared/domain/event-query';
import type { DateBounds } from '../../shared/domain/date-bounds';
import { listStatuses } from '../../shared/domain/post-rules';
import type { User } from '../../shared/domain/roles';
import { venueTreeScope } from '../../shared/domain/tallies';

/**
 * The pure part of GET /events (reference §4.2–4.6, decisions §5): which candidate rows a list keeps,
 * which day tally can count it, the order and the page.
 */

let nextId = 1;
const row = (over: Partial<EventRow> = {}): EventRow => ({
  eventId: nextId++,
  status: 'publish',
  author: 'user-editor',
  hidden: false,
  featured: false,
  start: '2027-01-15 20:00:00',
  end: '2027-01-15 23:00:00',
  utcEnd: '2027-01-15 23:00:00',
  ...over,
});

const editor: User = { sub: 'user-editor', role: 'editor' };
const contributor: User = { sub: 'contributor-1', role: 'contributor' };
const VISITOR = listStatuses(undefined, null);
const EDITOR = listStatuses(undefined, editor);
const CONTRIBUTOR = listStatuses(undefined, contributor);

const JANUARY: DateBounds = {
  startMin: '2027-01-01 00:00:00',
  endMax: '2027-01-31 23:59:59',
  dayAligned: true,
};

describe('rowFilter', () => {
  it('keeps a published row inside the window for visitors', () => {
    const keep = rowFilter({ statuses: VISITOR, bounds: JANUARY });

    expect(keep(row())).toBe(true);
  });

  it('drops a row hidden from listings, even for editors', () => {
    const keep = rowFilter({ statuses: EDITOR, bounds: JANUARY });

    expect(keep(row({ hidden: true }))).toBe(false);
  });

  it("drops a trashed row under editors' default statuses", () => {
    const keep = rowFilter({ statuses: EDITOR });

    expect(keep(row({ status: 'trash' }))).toBe(false);
  });

  it('keeps a trashed row when an editor asks for status=trash', () => {
    const keep = rowFilter({ statuses: listStatuses(['trash'], editor) });

    expect(keep(row({ status: 'trash' }))).toBe(true);
  });

  it('drops a draft for visitors', () => {
    const keep = rowFilter({ statuses: VISITOR });

    expect(keep(row({ status: 'draft' }))).toBe(false);
  });

  it("keeps another user's draft for editors", () => {
    const keep = rowFilter({ statuses: EDITOR });

    expect(keep(row({ status: 'draft', author: 'someone-else' }))).toBe(true);
  });

  it('keeps a contributor’s own unpublished row (ownerOfUnpublished)', () => {
    const keep = rowFilter({ statuses: CONTRIBUTOR });

    expect(keep(row({ status: 'pending', author: 'contributor-1' }))).toBe(true);
  });

  it('drops an unpublished row of someone else for a contributor', () => {
    const keep = rowFilter({ statuses: CONTRIBUTOR });

    expect(keep(row({ status: 'draft', author: 'contributor-2' }))).toBe(false);
  });

  it('keeps a published row of someone else for a contributor', () => {
    const keep = rowFilter({ statuses: CONTRIBUTOR });

    expect(keep(row({ status: 'publish', author: 'contributor-2' }))).toBe(true);
  });

  it('drops a row whose status is not asked for', () => {
    const keep = rowFilter({ statuses: listStatuses(['draft'], editor) });

    expect(keep(row({ status: 'publish' }))).toBe(false);
  });

  it('drops a row that starts before the window', () => {
    const keep = rowFilter({ statuses: VISITOR, bounds: JANUARY });

    expect(keep(row({ start: '2026-12-31 23:00:00', end: '2027-01-01 01:00:00' }))).toBe(false);
  });

  it('drops a row that ends after the window', () => {
    const keep = rowFilter({ statuses: VISITOR, bounds: JANUARY });

    expect(keep(row({ start: '2027-01-31 22:00:00', end: '2027-02-01 01:00:00' }))).toBe(false);
  });

  it('keeps a row of any date without bounds (include)', () => {
    const keep = rowFilter({ statuses: VISITOR });

    expect(keep(row({ start: '1999-01-01 10:00:00', end: '1999-01-01 11:00:00' }))).toBe(true);
  });

  it('keeps only featured rows with featured=true', () => {
    const keep = rowFilter({ statuses: VISITOR, featured: true });

    expect([keep(row({ featured: true })), keep(row({ featured: false }))]).toEqual([true, false]);
  });

  it('keeps only rows that are not featured with featured=false', () => {
    const keep = rowFilter({ statuses: VISITOR, featured: false });

    expect([keep(row({ featured: true })), keep(row({ featured: false }))]).toEqual([false, true]);
  });

  it('keeps featured and other rows alike without featured', () => {
    const keep = rowFilter({ statuses: VISITOR });

    expect([keep(row({ featured: true })), keep(row({ featured: false }))]).toEqual([true, true]);
  });

  it('keeps only the children of post_parent', () => {
    const keep = rowFilter({ statuses: VISITOR, postParent: 7 });

    expect([keep(row({ parent: 7 })), keep(row({ parent: 8 })), keep(row())]).toEqual([true, false, false]);
  });
});

describe('tallyWho', () => {
  it("counts visitors' list (publish only) with the published tally", () => {
    const who = tallyWho(VISITOR);

    expect(who).toBe('p');
  });

  it("counts editors' default list (every status but trash) with the all-statuses tally", () => {
    const who = tallyWho(EDITOR);

    expect(who).toBe('a');
  });

  it('reads the statuses in any order', () => {
    const who = tallyWho({ statuses: ['private', 'pending', 'draft', 'future', 'publish'] });

    expect(who).toBe('a');
  });

  it('has no tally when unpublished rows are only listed for their owner', () => {
    const who = tallyWho(CONTRIBUTOR);

    expect(who).toBeUndefined();
  });

  it('has no tally for a subset of the statuses', () => {
    const who = tallyWho({ statuses: ['publish', 'draft'] });

    expect(who).toBeUndefined();
  });

  it('has no tally when trash is asked for (tallies count listable events only)', () => {
    const who = tallyWho({ statuses: ['publish', 'future', 'draft', 'pending', 'private', 'trash'] });

    expect(who).toBeUndefined();
  });
});

describe('tallyScope', () => {
  const leaf = (kind: LinkFilter['kind'], id: number): LinkFilter => ({ kind, ids: [id], leaf: true });

  it('counts a list without link filters with the ALL tally', () => {
    const scope = tallyScope([], undefined);

    expect(scope).toEqual({ of: 'all' });
  });

  it('counts featured=true with the FEATURED tally', () => {
    const scope = tallyScope([], true);

    expect(scope).toEqual({ of: 'featured' });
  });

  it('has no tally for featured=false', () => {
    const scope = tallyScope([], false);

    expect(scope).toBeUndefined();
  });

  it.each([
    ['TERM', 5],
    ['VENUE', 3],
    ['ORGANIZER', 8],
  ] as const)('counts one leaf %s filter with that target’s tally', (kind, id) => {
    const scope = tallyScope([leaf(kind, id)], undefined);

    expect(scope).toEqual({ of: 'link', kind, id });
  });

  it('has no tally for a category with children (the filter spans several terms)', () => {
    const scope = tallyScope([{ kind: 'TERM', ids: [1, 2, 3], leaf: false }], undefined);

    expect(scope).toBeUndefined();
  });

  it('has no tally for several targets of one parameter (OR)', () => {
    const scope = tallyScope([{ kind: 'VENUE', ids: [3, 4], leaf: false }], undefined);

    expect(scope).toBeUndefined();
  });

  it('has no tally for two link filters (AND)', () => {
    const scope = tallyScope([leaf('TERM', 5), leaf('VENUE', 3)], undefined);

    expect(scope).toBeUndefined();
  });

  it('counts one category (leaf or not) with one venue with the pair tally of its subtree and the venue', () => {
    const leafCategory: LinkFilter = { kind: 'TERM', ids: [5], leaf: true, category: 5 };
    const parent: LinkFilter = { kind: 'TERM', ids: [1, 2, 3], leaf: false, tree: 1, category: 1 };

    const scopes = [
      tallyScope([leafCategory, leaf('VENUE', 3)], undefined),
      tallyScope([parent, leaf('VENUE', 3)], undefined),
    ];

    expect(scopes).toEqual([venueTreeScope(3, 5), venueTreeScope(3, 1)]);
  });

  it('has no pair tally for a tag, several venues, an organizer or featured', () => {
    const category: LinkFilter = { kind: 'TERM', ids: [5], leaf: true, category: 5 };

    const scopes = [
      tallyScope([leaf('TERM', 5), leaf('VENUE', 3)], undefined),
      tallyScope([category, { kind: 'VENUE', ids: [3, 4], leaf: false }], undefined),
      tallyScope([category, leaf('ORGANIZER', 3)], undefined),
      tallyScope([category, leaf('VENUE', 3)], true),
      tallyScope([category, leaf('TERM', 9), leaf('VENUE', 3)], undefined),
    ];

    expect(scopes).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  it('has no tally for one leaf filter combined with featured', () => {
    const scope = tallyScope([leaf('TERM', 5)], true);

    expect(scope).toBeUndefined();
  });
});

describe('byStart', () => {
  it('puts the earlier start first', () => {
    const rows = [
      row({ eventId: 1, start: '2027-01-16 09:00:00' }),
      row({ eventId: 2, start: '2027-01-15 20:00:00' }),
    ];

    const order = [...rows].sort(byStart).map((r) => r.eventId);

    expect(order).toEqual([2, 1]);
  });

  it('breaks a tie on start by ID', () => {
    const rows = [row({ eventId: 5 }), row({ eventId: 3 }), row({ eventId: 4 })];

    const order = [...rows].sort(byStart).map((r) => r.eventId);

    expect(order).toEqual([3, 4, 5]);
  });

  it('compares IDs as numbers, not strings', () => {
    const rows = [row({ eventId: 10 }), row({ eventId: 9 })];

    const order = [...rows].sort(byStart).map((r) => r.eventId);

    expect(order).toEqual([9, 10]);
  });
});

describe('pageOfCandidates', () => {
  /** Eleven candidates, handed over out of order: IDs 1–11, one day apart, ID 6 and 7 on the same day. */
  const candidates = () => {
    const days = [1, 2, 3, 4, 5, 6, 6, 8, 9, 10, 11];
    const list = days.map((d, i) => ({
      row: row({ eventId: i + 1, start: `2027-01-${String(d).padStart(2, '0')} 10:00:00` }),
      tag: `c${i + 1}`,
    }));
    return [...list].reverse();
  };
  const idsOf = (page: Array<{ row: EventRow }>) => page.map((c) => c.row.eventId);

  it('answers the first page in list order (start, then ID)', () => {
    const page = pageOfCandidates(candidates(), { page: 1, perPage: 4 });

    expect(idsOf(page)).toEqual([1, 2, 3, 4]);
  });

  it('continues on the next page where the previous one stopped', () => {
    const page = pageOfCandidates(candidates(), { page: 2, perPage: 4 });

    expect(idsOf(page)).toEqual([5, 6, 7, 8]);
  });

  it('answers a short last page', () => {
    const page = pageOfCandidates(candidates(), { page: 3, perPage: 4 });

    expect(idsOf(page)).toEqual([9, 10, 11]);
  });

  it('answers an empty page past the end', () => {
    const page = pageOfCandidates(candidates(), { page: 4, perPage: 4 });

    expect(page).toEqual([]);
  });

  it('answers an empty page for no candidates', () => {
    const page = pageOfCandidates([], { page: 1, perPage: 10 });

    expect(page).toEqual([]);
  });

  it('carries each candidate whole (record and all), not only its row', () => {
    const page = pageOfCandidates(candidates(), { page: 1, perPage: 1 });

    expect(page[0]).toMatchObject({ row: { eventId: 1 }, tag: 'c1' });
  });

  it('leaves the candidates it was given in their order', () => {
    const given = candidates();
    const before = idsOf(given);

    pageOfCandidates(given, { page: 1, perPage: 4 });

    expect(idsOf(given)).toEqual(before);
  });
});

describe('matchesSearch', () => {
  const event = (title: string, excerpt = '', description = '') =>
    ({ title, excerpt, description }) as unknown as EventRecord;

  it('finds a word of the title', () => {
    const found = matchesSearch(event('Jazz Night'), 'jazz');

    expect(found).toBe(true);
  });

  it('ignores case in the search and in the text', () => {
    const found = matchesSearch(event('jazz night'), 'JAZZ');

    expect(found).toBe(true);
  });

  it('looks in the excerpt and the description too', () => {
    const found = [
      matchesSearch(event('Evening', 'Live music'), 'music'),
      matchesSearch(event('Evening', '', '<p>Bring a blanket</p>'), 'blanket'),
    ];

    expect(found).toEqual([true, true]);
  });

  it('needs every word of the search', () => {
    const found = matchesSearch(event('Jazz Night'), 'jazz brunch');

    expect(found).toBe(false);
  });

  it('finds the words in any order and in different fields', () => {
    const found = matchesSearch(event('Night Market', 'Street food'), 'food night');

    expect(found).toBe(true);
  });

  it('answers false when no word is found', () => {
    const found = matchesSearch(event('Pottery Workshop', 'Clay', 'Hands-on'), 'opera');

    expect(found).toBe(false);
  });
});

describe('geoMatch', () => {
  const PARIS = { lat: 48.8566, lng: 2.3522 };
  /** Due north of Paris: 0.2° of latitude is about 22.2 km, 0.23° about 25.6 km. */
  const north = (deg: number) => ({ lat: PARIS.lat + deg, lng: PARIS.lng });
  const near = { geoloc_lat: PARIS.lat, geoloc_lng: PARIS.lng };

  it('keeps every event without geoloc parameters', () => {
    const kept = [geoMatch([], {}), geoMatch([PARIS], {})];

    expect(kept).toEqual([true, true]);
  });

  it('keeps only events whose venue has coordinates with geoloc=true', () => {
    const kept = [geoMatch([PARIS], { geoloc: true }), geoMatch([], { geoloc: true })];

    expect(kept).toEqual([true, false]);
  });

  it('keeps only events whose venue has no coordinates with geoloc=false', () => {
    const kept = [geoMatch([PARIS], { geoloc: false }), geoMatch([], { geoloc: false })];

    expect(kept).toEqual([false, true]);
  });

  it('keeps a venue within the default radius of 25 km', () => {
    const kept = geoMatch([north(0.2)], near);

    expect(kept).toBe(true);
  });

  it('drops a venue beyond the default radius of 25 km', () => {
    const kept = geoMatch([north(0.23)], near);

    expect(kept).toBe(false);
  });

  it('uses geoloc_radius when given', () => {
    const kept = [
      geoMatch([north(0.23)], { ...near, geoloc_radius: 30 }),
      geoMatch([north(0.2)], { ...near, geoloc_radius: 10 }),
    ];

    expect(kept).toEqual([true, false]);
  });

  it('keeps an event when any one of its venues lies within the radius', () => {
    const kept = geoMatch([north(2), north(0.1)], near);

    expect(kept).toBe(true);
  });

  it('drops an event without coordinates when a point is asked for', () => {
    const kept = geoMatch([], near);

    expect(kept).toBe(false);
  });
});
