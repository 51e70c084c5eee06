import { describe, expect, it } from 'vitest';
import type { Term } from '../../web/src/api-types';
import {
  activeFilters,
  apiFilters,
  badDate,
  categoryTree,
  isDay,
  NO_FILTERS,
  type PageState,
  readState,
  searchOf,
  stateQuery,
} from '../../web/src/filters';

/** The calendar page's view and filters, to and from its address and the API (web/src/filters.ts). */
const state = (over: Partial<PageState> = {}): PageState => ({
  view: 'dayGridMonth',
  date: '',
  ...NO_FILTERS,
  ...over,
});

describe('readState', () => {
  it('reads the view, the date and every filter from the query', () => {
    expect(
      readState(
        '?view=listMonth&date=2026-12-01&category=jazz&tag=accessible&venue=12&organizer=13&featured=1&search=piano&trash=1&series=7',
        '/',
      ),
    ).toEqual({
      view: 'listMonth',
      date: '2026-12-01',
      search: 'piano',
      category: 'jazz',
      tag: 'accessible',
      venue: '12',
      organizer: '13',
      featured: true,
      trash: true,
      series: '7',
    });
  });

  it('opens on the month, today, unfiltered, for an empty or unknown query', () => {
    expect(readState('', '/')).toEqual(state());
    expect(readState('?view=agenda&date=2031-02-31&series=x&featured=yes', '/')).toEqual(state());
  });

  it("takes a category's or tag's page as its filter unless the query names one", () => {
    expect(readState('', '/events/category/music/jazz/')).toEqual(state({ category: 'jazz' }));
    expect(readState('?category=rock', '/events/category/jazz/')).toEqual(state({ category: 'rock' }));
    expect(readState('', '/tag/free/')).toEqual(state({ tag: 'free' }));
  });

  it('round-trips through stateQuery', () => {
    const s = state({ view: 'timeGridWeek', date: '2031-03-12', search: 'a b', tag: 't', featured: true });
    expect(readState(stateQuery(s), '/')).toEqual(s);
  });
});

describe('stateQuery', () => {
  it('leaves out what is empty or the default view', () => {
    expect(stateQuery(state())).toBe('');
    expect(stateQuery(state({ date: '2031-03-01', venue: '12', trash: true }))).toBe(
      '?date=2031-03-01&venue=12&trash=1',
    );
    expect(stateQuery(state({ view: 'listMonth' }))).toBe('?view=listMonth');
  });
});

describe('isDay and badDate', () => {
  it('takes calendar days only: no rolling over, no other shape', () => {
    expect(isDay('2031-03-12')).toBe(true);
    expect(isDay('2028-02-29')).toBe(true);
    expect(isDay('2031-02-29')).toBe(false);
    expect(isDay('2031-3-12')).toBe(false);
    expect(isDay('')).toBe(false);
  });

  it('names a date of the address that is no day, and nothing for none or a good one', () => {
    expect(badDate('?date=2031-02-31')).toBe('2031-02-31');
    expect(badDate('?date=2031-02-28')).toBeNull();
    expect(badDate('?date=')).toBeNull();
    expect(badDate('')).toBeNull();
  });
});

describe('apiFilters', () => {
  it('asks the API for the filters, lists as lists and IDs as numbers; a blank search is none', () => {
    expect(
      apiFilters(
        {
          ...NO_FILTERS,
          search: ' piano ',
          category: 'jazz',
          tag: 't',
          venue: '12',
          organizer: '13',
          featured: true,
          series: '7',
        },
        false,
      ),
    ).toEqual({
      search: 'piano',
      categories: ['jazz'],
      tags: ['t'],
      venue: [12],
      organizer: [13],
      featured: true,
      series: 7,
    });
    expect(apiFilters({ ...NO_FILTERS, search: '  ' }, false)).toEqual({});
  });

  it('lists the trash for the signed-in only', () => {
    expect(apiFilters({ ...NO_FILTERS, trash: true }, true)).toEqual({ status: ['trash'] });
    expect(apiFilters({ ...NO_FILTERS, trash: true }, false)).toEqual({});
  });

  it('searchOf writes lists comma-separated', () => {
    expect(searchOf({ categories: ['a', 'b'], featured: true }).toString()).toBe(
      'categories=a%2Cb&featured=true',
    );
  });
});

describe('activeFilters', () => {
  it('counts the filters that apply, not the view or the date', () => {
    expect(activeFilters(state({ view: 'listMonth', date: '2031-03-01' }))).toBe(0);
    expect(activeFilters(state({ search: 'x', featured: true, trash: true, series: '3' }))).toBe(4);
  });
});

describe('categoryTree', () => {
  const term = (id: number, name: string, parent = 0): Term => ({
    id,
    name,
    slug: name.toLowerCase(),
    parent,
  });
  it('puts children under their parent, in order, with their depth', () => {
    const tree = categoryTree([term(1, 'Music'), term(2, 'Jazz', 1), term(3, 'Art'), term(4, 'Bebop', 2)]);
    expect(tree.map(({ term: t, depth }) => `${depth}:${t.name}`)).toEqual([
      '0:Music',
      '1:Jazz',
      '2:Bebop',
      '0:Art',
    ]);
  });

  it('takes a category whose parent is not listed as a top-level one', () => {
    expect(categoryTree([term(2, 'Jazz', 99)]).map(({ depth }) => depth)).toEqual([0]);
  });

  it('stops nine levels down', () => {
    const deep = Array.from({ length: 12 }, (_, i) => term(i + 1, `L${i}`, i));
    expect(categoryTree(deep)).toHaveLength(9);
  });
});
