import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useStack } from '../support/use-stack';

/**
 * GET /events (spec §4.3, reference §4, decisions §5) over the reference's own seed events
 * (samples 021–039), with the clock fixed at the reference capture time: the gateway runs in this
 * process, so faking Date fixes "now" for the handlers too.
 */
const NOW = new Date('2026-11-22T11:49:00Z');

const {
  api,
  tokens: { editor, contributor, subscriber },
} = await useStack({
  now: NOW,
  tokens: { editor: 'editor', contributor: ['contributor', 'contributor-1'], subscriber: 'subscriber' },
});
const ids: Record<string, number> = {};
const terms: Record<string, number> = {};

type Params = Record<string, string | number | boolean>;
const qs = (p: Params | string) =>
  typeof p === 'string'
    ? p
    : new URLSearchParams(Object.entries(p).map(([k, v]): [string, string] => [k, String(v)])).toString();
const list = (p: Params | string = {}, token?: string) => {
  const query = qs(p);
  return api.get(`/events${query ? `?${query}` : ''}`, { token });
};
const titles = (res: { body: { events: Array<{ title: string }> } }) => res.body.events.map((e) => e.title);

const create = async (body: Record<string, unknown>, token = editor) => {
  const res = await api.post('/events', body, { token });
  expect(res.status).toBe(201);
  ids[body.title as string] = res.body.id;
  return res.body;
};
const forceDelete = async (id: number) => {
  const res = await api.del(`/events/${id}?force=true`, { token: editor });
  expect(res.status).toBe(200);
};

const DEFAULT_PAGE_1 = [
  'Winter Market',
  'Sticky Event',
  'Jazz Night',
  'Pottery Workshop',
  'New York Brunch Talk',
  'Berlin Late Show',
  'Community Meetup #1',
  'Community Meetup #2',
  'Community Meetup #3',
  'Community Meetup #4',
];
const DEFAULT_PAGE_2 = ['Community Meetup #5', 'Multi-organizer Gala', 'Summer Festival'];
const DEFAULT_ALL = [...DEFAULT_PAGE_1, ...DEFAULT_PAGE_2];

beforeAll(async () => {
  const term = async (collection: string, body: Record<string, unknown>) => {
    const res = await api.post(`/${collection}`, body, { token: editor });
    expect(res.status).toBe(201);
    terms[body.name as string] = res.body.id;
    return res.body.id as number;
  };
  const music = await term('categories', { name: 'Music' });
  const jazz = await term('categories', { name: 'Jazz', parent: music });
  const workshops = await term('categories', { name: 'Workshops' });
  await term('categories', { name: 'Empty Category' });
  const outdoor = await term('tags', { name: 'Outdoor' });
  const free = await term('tags', { name: 'Free' });
  const family = await term('tags', { name: 'Family' });

  // Samples 021–039, in their order (so IDs increase the same way), without venues and organizers.
  await create({
    title: 'Jazz Night',
    description: '<p>An evening of <strong>live jazz</strong>.</p>',
    excerpt: 'Live jazz downtown',
    start_date: '2027-01-15 20:00:00',
    end_date: '2027-01-15 23:00:00',
    categories: [jazz],
    tags: [free],
    cost: '15',
    featured: true,
  });
  await create({
    title: 'Summer Festival',
    description: 'Three days of music in the park.',
    start_date: '2027-07-01 10:00:00',
    end_date: '2027-07-03 22:00:00',
    categories: ['music'],
    tags: [outdoor, family],
    cost: 'Free',
  });
  await create({
    title: 'Pottery Workshop',
    description: 'Learn to throw pots.',
    all_day: true,
    start_date: '2027-02-10',
    end_date: '2027-02-10',
    categories: [workshops],
  });
  await create({
    title: 'New York Brunch Talk',
    start_date: '2027-03-05 09:00:00',
    end_date: '2027-03-05 10:30:00',
    timezone: 'America/New_York',
  });
  await create({
    title: 'Berlin Late Show',
    start_date: '2027-03-07 00:30:00',
    end_date: '2027-03-07 02:00:00',
    timezone: 'Europe/Berlin',
    tags: [outdoor],
  });
  await create({
    title: 'Draft Planning Meeting',
    status: 'draft',
    start_date: '2027-01-20 14:00:00',
    end_date: '2027-01-20 15:00:00',
  });
  await create({
    title: 'Multi-organizer Gala',
    start_date: '2027-05-20 19:00:00',
    end_date: '2027-05-20 23:30:00',
    categories: [music],
    cost: '$20 - $50',
  });
  await create({
    title: 'Winter Market',
    start_date: '2026-12-05 09:00:00',
    end_date: '2026-12-05 17:00:00',
  });
  await create({
    title: 'Old Play',
    start_date: '2025-05-01 19:00:00',
    end_date: '2025-05-01 21:00:00',
    categories: [music],
  });
  await create({
    title: 'Another Old Play',
    start_date: '2025-05-02 19:00:00',
    end_date: '2025-05-02 21:00:00',
  });
  await create({
    title: 'Hidden Event',
    start_date: '2027-01-10 10:00:00',
    end_date: '2027-01-10 11:00:00',
    hide_from_listings: true,
  });
  await create({
    title: 'Sticky Event',
    start_date: '2027-01-11 10:00:00',
    end_date: '2027-01-11 11:00:00',
    sticky: true,
  });
  await create({
    title: 'Long Running Exhibition',
    start_date: '2026-11-01 10:00:00',
    end_date: '2027-02-28 18:00:00',
  });
  for (const n of [1, 2, 3, 4, 5])
    await create({
      title: `Community Meetup #${n}`,
      description: `Monthly meetup number ${n}.`,
      start_date: `2027-04-0${n} 18:00:00`,
      end_date: `2027-04-0${n} 20:00:00`,
      tags: n % 2 === 1 ? [family] : [],
      featured: n === 3,
    });
  await create(
    {
      title: 'Contributor Event',
      status: 'publish',
      start_date: '2027-06-01 10:00:00',
      end_date: '2027-06-01 12:00:00',
    },
    contributor,
  );
});

describe('the fixed clock', () => {
  it('reaches the handlers: a new event is dated at the fixed now', async () => {
    const e = await api.post(
      '/events',
      { title: 'Clock Probe', status: 'draft', start_date: '2035-01-01', end_date: '2035-01-01' },
      { token: editor },
    );

    expect(e.body).toMatchObject({
      date: '2026-11-22 11:49:00',
      date_utc: '2026-11-22 11:49:00',
      modified: '2026-11-22 11:49:00',
    });
    await forceDelete(e.body.id);
  });

  it('reads relative dates of a write against it (sample 169)', async () => {
    const e = await api.post(
      '/events',
      {
        title: 'Natural Dates',
        status: 'draft',
        start_date: 'next monday 10am',
        end_date: 'next monday 11am',
      },
      { token: editor },
    );

    expect([e.body.start_date, e.body.end_date]).toEqual(['2026-11-23 10:00:00', '2026-11-23 11:00:00']);
    await forceDelete(e.body.id);
  });
});

describe('the default window', () => {
  it('lists published events from the beginning of yesterday, ordered by start (sample 040)', async () => {
    const res = await list();

    expect(res.status).toBe(200);
    expect(titles(res)).toEqual(DEFAULT_PAGE_1);
    expect(res.body).toMatchObject({ total: 13, total_pages: 2 });
    expect(res.headers.get('x-cal-total')).toBe('13');
    expect(res.headers.get('x-cal-totalpages')).toBe('2');
  });

  it('leaves out events that started before the window even if still running, past events and hidden ones', async () => {
    const res = await list({ per_page: 50 });

    expect(titles(res)).toEqual(DEFAULT_ALL);
    expect(titles(res)).not.toContain('Long Running Exhibition');
    expect(titles(res)).not.toContain('Hidden Event');
    expect(titles(res)).not.toContain('Old Play');
  });

  describe('edges, against the fixed clock', () => {
    const edge: number[] = [];
    let tag: number;

    beforeAll(async () => {
      const res = await api.post('/tags', { name: 'Clock Edge' }, { token: editor });
      tag = res.body.id;
      for (const [title, start_date, end_date] of [
        ['Edge Two Days Ago', '2026-11-20 23:00:00', '2026-11-20 23:30:00'],
        ['Edge Yesterday Morning', '2026-11-21 00:00:00', '2026-11-21 01:00:00'],
        ['Edge Last Day', '2028-11-22 22:00:00', '2028-11-22 23:59:59'],
        ['Edge Past The End', '2028-11-22 23:30:00', '2028-11-23 00:30:00'],
      ])
        edge.push((await create({ title, start_date, end_date, tags: [tag], description: 'clockedge' })).id);
    });
    afterAll(async () => {
      for (const id of edge) await forceDelete(id);
    });

    it('starts at the beginning of yesterday and ends with the day 24 months ahead', async () => {
      const res = await list({ tags: tag });

      expect(titles(res)).toEqual(['Edge Yesterday Morning', 'Edge Last Day']);
    });

    it('gives the same answer without the tallies (search forces the full read)', async () => {
      const res = await list({ tags: tag, search: 'clockedge' });

      expect(titles(res)).toEqual(['Edge Yesterday Morning', 'Edge Last Day']);
      expect(res.body.total).toBe(2);
    });
  });
});

describe('status and roles (reference §4.5)', () => {
  it('shows editors every status but trash by default (sample 041)', async () => {
    const res = await list({}, editor);

    expect(titles(res)).toEqual([
      'Winter Market',
      'Sticky Event',
      'Jazz Night',
      'Draft Planning Meeting',
      'Pottery Workshop',
      'New York Brunch Talk',
      'Berlin Late Show',
      'Community Meetup #1',
      'Community Meetup #2',
      'Community Meetup #3',
    ]);
    expect(res.body.total).toBe(15);
  });

  it('shows a contributor their own pending event among published ones (sample 098)', async () => {
    const res = await list({ per_page: 3, start_date: '2027-05-01' }, contributor);

    expect(titles(res)).toEqual(['Multi-organizer Gala', 'Contributor Event', 'Summer Festival']);
    expect(res.body.total).toBe(3);
  });

  it('does not show a contributor other people’s drafts', async () => {
    const res = await list({ start_date: '2027-01-20', end_date: '2027-01-20' }, contributor);

    expect(titles(res)).toEqual([]);
  });

  it('shows subscribers published events only', async () => {
    const res = await list({ per_page: 50 }, subscriber);

    expect(titles(res)).toEqual(DEFAULT_ALL);
  });

  it('refuses any status but publish to anonymous callers (sample 096) and subscribers', async () => {
    const anonymous = await list({ status: 'draft' });
    const asSubscriber = await list({ status: 'publish,draft' }, subscriber);

    expect(anonymous.status).toBe(400);
    expect(anonymous.body.data.params).toHaveProperty('status');
    expect(asSubscriber.status).toBe(400);
  });

  it('accepts status=publish from anonymous callers', async () => {
    const res = await list({ status: 'publish', per_page: 50 });

    expect(titles(res)).toEqual(DEFAULT_ALL);
  });

  it('filters by one status for editors (sample 097)', async () => {
    const res = await list({ status: 'draft' }, editor);

    expect(titles(res)).toEqual(['Draft Planning Meeting']);
  });

  it('filters by several statuses, as CSV with spaces or as an array', async () => {
    const csv = await list({ status: 'draft, pending' }, editor);
    const array = await list('status[]=draft&status[]=pending', editor);

    expect(titles(csv)).toEqual(['Draft Planning Meeting', 'Contributor Event']);
    expect(titles(array)).toEqual(titles(csv));
  });

  it('counts only published events for an editor asking for publish (sample 099)', async () => {
    const res = await list({ status: 'publish', per_page: 3 }, editor);

    expect(titles(res)).toEqual(['Winter Market', 'Sticky Event', 'Jazz Night']);
    expect(res.body).toMatchObject({ total: 13, total_pages: 5 });
  });

  it('lists trashed events only when asked', async () => {
    const e = await create({
      title: 'Trashed For The List',
      start_date: '2027-01-21 10:00',
      end_date: '2027-01-21 11:00',
    });
    await api.del(`/events/${e.id}`, { token: editor });

    const trash = await list({ status: 'trash' }, editor);
    const defaults = await list({ start_date: '2027-01-21', end_date: '2027-01-21' }, editor);

    expect(titles(trash)).toContain('Trashed For The List');
    expect(titles(defaults)).toEqual([]);
  });

  it.each(['foo', 'foo, bar, publish', 'any'])(
    'refuses the unknown status %j, even to editors',
    async (status) => {
      const res = await list({ status }, editor);

      expect(res.status).toBe(400);
      expect(res.body.data.params).toHaveProperty('status');
    },
  );
});

describe('paging, envelope and headers', () => {
  it('serves page 2 with a previous link and no next link (sample 042)', async () => {
    const res = await list({ page: 2 });

    expect(titles(res)).toEqual(DEFAULT_PAGE_2);
    expect(Object.keys(res.body)).toEqual([
      'events',
      'rest_url',
      'previous_rest_url',
      'total',
      'total_pages',
    ]);
    expect(res.body.previous_rest_url).toBe(`${api.base}/events`);
  });

  it('orders the envelope keys as the reference does, both links on a middle page (sample 045)', async () => {
    const res = await list({ per_page: 5, page: 2 });

    expect(Object.keys(res.body)).toEqual([
      'events',
      'rest_url',
      'next_rest_url',
      'previous_rest_url',
      'total',
      'total_pages',
    ]);
    expect(titles(res)).toEqual(DEFAULT_ALL.slice(5, 10));
    expect(res.body).toMatchObject({ total: 13, total_pages: 3 });
  });

  it('serves the last page of a per_page=5 list (sample 046)', async () => {
    const res = await list({ per_page: 5, page: 3 });

    expect(titles(res)).toEqual(DEFAULT_PAGE_2);
    expect(res.body).not.toHaveProperty('next_rest_url');
  });

  it('echoes the request in rest_url', async () => {
    const res = await list('per_page=5&page=2&featured=false');

    expect(res.body.rest_url).toBe(`${api.base}/events?per_page=5&page=2&featured=false`);
  });

  it('keeps every other query parameter in next_rest_url and previous_rest_url (decisions §8)', async () => {
    const res = await list({ categories: 'music', per_page: 1, start_date: '2020-01-01', page: 2 });

    const next = new URL(res.body.next_rest_url);
    const previous = new URL(res.body.previous_rest_url);
    expect(Object.fromEntries(next.searchParams)).toEqual({
      categories: 'music',
      per_page: '1',
      start_date: '2020-01-01',
      page: '3',
    });
    expect(Object.fromEntries(previous.searchParams)).toEqual({
      categories: 'music',
      per_page: '1',
      start_date: '2020-01-01',
    });
    expect(next.pathname).toBe('/cal/events/v1/events');
  });

  it('follows next_rest_url to the next page (sample 073, whose next link loses the filter)', async () => {
    const first = await list({ categories: 'music', per_page: 1, start_date: '2020-01-01' });

    const next = new URL(first.body.next_rest_url);
    const second = await api.get(
      `${next.pathname.slice(new URL(api.base).pathname.length).replace(/\/$/, '')}${next.search}`,
    );

    expect(titles(first)).toEqual(['Old Play']);
    expect(titles(second)).toEqual(['Jazz Night']);
    expect(second.body.total).toBe(4);
  });

  it('sends an RFC 8288 Link header with next and prev', async () => {
    const res = await list({ per_page: 5, page: 2 });

    expect(res.headers.get('link')).toBe(
      `<${res.body.next_rest_url}>; rel="next", <${res.body.previous_rest_url}>; rel="prev"`,
    );
  });

  it('sends no Link header when everything fits on one page', async () => {
    const res = await list({ per_page: 50 });

    expect(res.headers.get('link')).toBeNull();
    expect(res.body).not.toHaveProperty('next_rest_url');
    expect(res.body).not.toHaveProperty('previous_rest_url');
  });

  it('answers 404 event-archive-page-not-found past the last page (sample 043)', async () => {
    const res = await list({ page: 5 });

    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      code: 'event-archive-page-not-found',
      message: 'The requested event archive page does not exist',
      data: { status: 404 },
    });
  });

  it('answers an empty first page with 200, [] and zero totals (sample 054)', async () => {
    const res = await list({ start_date: '2027-03-06', end_date: '2027-03-06' });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ events: [], rest_url: expect.any(String), total: 0, total_pages: 0 });
    expect(res.headers.get('x-cal-total')).toBe('0');
    expect(res.headers.get('x-cal-totalpages')).toBe('0');
  });

  it('answers 404 for page 2 of an empty list', async () => {
    const res = await list({ start_date: '2027-03-06', end_date: '2027-03-06', page: 2 });

    expect(res.status).toBe(404);
  });

  it('defaults per_page to 10', async () => {
    const res = await list();

    expect(res.body.events).toHaveLength(10);
  });

  it.each([
    ['per_page', 0],
    ['per_page', -1],
    ['per_page', 'abc'],
    ['per_page', 1.5],
    ['page', 0],
    ['page', 'foo bar'],
  ])('refuses %s=%j with a 400 naming it (samples 048–051)', async (param, value) => {
    const res = await list({ [param]: value });

    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect(res.body.data.params).toHaveProperty(param);
  });

  describe('the per_page cap', () => {
    const bulk: number[] = [];
    let tag: number;

    beforeAll(async () => {
      tag = (await api.post('/tags', { name: 'Bulk' }, { token: editor })).body.id;
      for (let batch = 0; batch < 52; batch += 13) {
        const made = await Promise.all(
          Array.from({ length: 13 }, (_, i) => {
            const day = String(((batch + i) % 28) + 1).padStart(2, '0');
            return create({
              title: `Bulk ${batch + i}`,
              start_date: `2030-02-${day} 10:00`,
              end_date: `2030-02-${day} 11:00`,
              tags: [tag],
            });
          }),
        );
        bulk.push(...made.map((e) => e.id));
      }
    });
    afterAll(async () => {
      for (const id of bulk) await forceDelete(id);
    });

    it('caps per_page silently at 50 (sample 047)', async () => {
      const res = await list({ tags: tag, per_page: 100, start_date: '2030-01-01', end_date: '2030-12-31' });

      expect(res.status).toBe(200);
      expect(res.body.events).toHaveLength(50);
      expect(res.body).toMatchObject({ total: 52, total_pages: 2 });
      expect(new URL(res.body.next_rest_url).searchParams.get('per_page')).toBe('100');
    });

    it('serves the rest on page 2 with the same cap', async () => {
      const res = await list({
        tags: tag,
        per_page: 100,
        start_date: '2030-01-01',
        end_date: '2030-12-31',
        page: 2,
      });

      expect(res.body.events).toHaveLength(2);
    });
  });
});

describe('start_date and end_date (reference §4.3)', () => {
  it('includes past events from an early start_date, with the default end (sample 052)', async () => {
    const res = await list({ start_date: '2025-01-01', per_page: 50 });

    expect(titles(res)).toEqual(['Old Play', 'Another Old Play', 'Long Running Exhibition', ...DEFAULT_ALL]);
    expect(res.body.total).toBe(16);
  });

  it('keeps events that fit entirely in a month (sample 053)', async () => {
    const res = await list({ start_date: '2027-01-01', end_date: '2027-01-31' });

    expect(titles(res)).toEqual(['Sticky Event', 'Jazz Night']);
  });

  it('compares the event’s local wall time: a Berlin event at 00:30 belongs to its local day (samples 054, 055)', async () => {
    const sixth = await list({ start_date: '2027-03-06', end_date: '2027-03-06' });
    const seventh = await list({ start_date: '2027-03-07', end_date: '2027-03-07' });

    expect(titles(sixth)).toEqual([]);
    expect(titles(seventh)).toEqual(['Berlin Late Show']);
  });

  it('widens start_date to its whole day unless strict (sample 056)', async () => {
    const res = await list({ start_date: '2027-01-15 21:00:00', end_date: '2027-01-31' });

    expect(titles(res)).toEqual(['Jazz Night']);
  });

  it('uses the exact times with strict_dates=true (sample 057)', async () => {
    const res = await list({
      start_date: '2027-01-15 21:00:00',
      end_date: '2027-01-31',
      strict_dates: 'true',
    });

    expect(titles(res)).toEqual([]);
  });

  it('accepts strict_dates=1', async () => {
    const res = await list({
      start_date: '2027-01-15 19:00:00',
      end_date: '2027-01-15 23:00:00',
      strict_dates: 1,
    });

    expect(titles(res)).toEqual(['Jazz Night']);
  });

  it('refuses a non-boolean strict_dates', async () => {
    const res = await list({ strict_dates: 'maybe' });

    expect(res.status).toBe(400);
    expect(res.body.data.params).toHaveProperty('strict_dates');
  });

  it.each([
    ['start_date', 'not-a-date'],
    ['end_date', 'garbage'],
    ['start_date', 'before my birthday'],
    ['starts_before', 'soonish'],
    ['starts_after', '2027-02-30'],
    ['ends_before', 'x'],
    ['ends_after', 'after my birthday'],
  ])('refuses an unparseable %s (%j) with a 400 naming it (samples 058, 059)', async (param, value) => {
    const res = await list({ [param]: value });

    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect(res.body.data.params).toHaveProperty(param);
  });

  it('answers an end before the start with an empty list (sample 060)', async () => {
    const res = await list({ start_date: '2027-02-01', end_date: '2027-01-01' });

    expect(res.status).toBe(200);
    expect(titles(res)).toEqual([]);
  });

  it('reads relative phrases against the clock (sample 061)', async () => {
    const empty = await list({ start_date: '+1 year', end_date: '+2 years' });
    const soon = await list({ start_date: 'tomorrow', end_date: '+30 days' });

    expect(titles(empty)).toEqual([]);
    expect(titles(soon)).toEqual(['Winter Market']);
  });

  it('takes the day of an ISO 8601 date with an offset in the site zone (sample 062)', async () => {
    const res = await list({ start_date: '2027-01-15T19:00:00-05:00', end_date: '2027-01-16' });

    expect(titles(res)).toEqual([]);
  });

  it('reads a Unix timestamp', async () => {
    const res = await list({ start_date: Date.parse('2027-01-15T00:00:00Z') / 1000, end_date: '2027-01-31' });

    expect(titles(res)).toEqual(['Jazz Night']);
  });

  describe('the reference examples of §4.3', () => {
    const made: number[] = [];
    const at = async (title: string, start: string, end: string) =>
      made.push((await create({ title, start_date: start, end_date: end })).id);

    beforeAll(async () => {
      await at('Ex A 2017-12-31 17:00', '2017-12-31 17:00:00', '2017-12-31 19:00:00');
      await at('Ex B 2018-01-01 16:00', '2018-01-01 16:00:00', '2018-01-01 16:30:00');
      await at('Ex C 2018-01-01 20:00', '2018-01-01 20:00:00', '2018-01-01 20:30:00');
      await at('Ex D 2018-01-02 10:00', '2018-01-02 10:00:00', '2018-01-02 11:00:00');
      await at('Ex E 2017-12-30 3 days', '2017-12-30 10:00:00', '2018-01-02 10:00:00');
      await at('Ex F 2017-12-29 5 days', '2017-12-29 10:00:00', '2018-01-03 10:00:00');
    });
    afterAll(async () => {
      for (const id of made) await forceDelete(id);
    });

    it('keeps both events of Jan 1 in the inclusive reading of 15:00–18:00', async () => {
      const res = await list({ start_date: '2018-01-01 15:00:00', end_date: '2018-01-01 18:00:00' });

      expect(titles(res)).toEqual(['Ex B 2018-01-01 16:00', 'Ex C 2018-01-01 20:00']);
    });

    it('keeps only the 16:00 event in the strict reading', async () => {
      const res = await list({
        start_date: '2018-01-01 15:00:00',
        end_date: '2018-01-01 18:00:00',
        strict_dates: true,
      });

      expect(titles(res)).toEqual(['Ex B 2018-01-01 16:00']);
    });

    it('combines ends_after and starts_before, multi-day events included, in start order', async () => {
      const res = await list({ ends_after: '2017-12-31', starts_before: '2018-01-02' });

      expect(titles(res)).toEqual([
        'Ex F 2017-12-29 5 days',
        'Ex E 2017-12-30 3 days',
        'Ex B 2018-01-01 16:00',
        'Ex C 2018-01-01 20:00',
        'Ex D 2018-01-02 10:00',
      ]);
    });

    it('narrows that with start_date and end_date (AND across the date parameters)', async () => {
      const res = await list({
        ends_after: '2017-12-31',
        starts_before: '2018-01-02',
        start_date: '2017-12-30',
        end_date: '2018-01-02',
      });

      expect(titles(res)).toEqual([
        'Ex E 2017-12-30 3 days',
        'Ex B 2018-01-01 16:00',
        'Ex C 2018-01-01 20:00',
        'Ex D 2018-01-02 10:00',
      ]);
    });
  });
});

describe('starts_* and ends_* (reference §4.3)', () => {
  it('starts_after drops the default window and counts from the end of its day (sample 063)', async () => {
    const res = await list({ starts_after: '2027-03-01' });

    expect(titles(res)).toEqual([
      'New York Brunch Talk',
      'Berlin Late Show',
      'Community Meetup #1',
      'Community Meetup #2',
      'Community Meetup #3',
      'Community Meetup #4',
      'Community Meetup #5',
      'Multi-organizer Gala',
      'Summer Festival',
    ]);
    expect(res.body.total).toBe(9);
  });

  it('starts_after a day with an event leaves that event out (inclusive means the end of the day)', async () => {
    const res = await list({ starts_after: '2027-04-01' });

    expect(titles(res)[0]).toBe('Community Meetup #2');
  });

  it('starts_before reaches into the past (sample 064)', async () => {
    const res = await list({ starts_before: '2026-12-31' });

    expect(titles(res)).toEqual(['Old Play', 'Another Old Play', 'Long Running Exhibition', 'Winter Market']);
  });

  it('starts_before with an explicit start_date keeps that start_date (sample 065)', async () => {
    const res = await list({ starts_before: '2026-12-31', start_date: '2020-01-01' });

    expect(titles(res)).toEqual(['Old Play', 'Another Old Play', 'Long Running Exhibition', 'Winter Market']);
  });

  it('starts_before with a later start_date narrows it', async () => {
    const res = await list({ starts_before: '2026-12-31', start_date: '2026-01-01' });

    expect(titles(res)).toEqual(['Long Running Exhibition', 'Winter Market']);
  });

  it('ends_before (sample 066)', async () => {
    const res = await list({ ends_before: '2027-01-12' });

    expect(titles(res)).toEqual(['Old Play', 'Another Old Play', 'Winter Market', 'Sticky Event']);
  });

  it('ends_after (sample 067)', async () => {
    const res = await list({ ends_after: '2027-06-30' });

    expect(titles(res)).toEqual(['Summer Festival']);
  });

  it('ends_after includes events that are running now (sample 068)', async () => {
    const res = await list({ ends_after: '2026-11-22', per_page: 3 });

    expect(titles(res)).toEqual(['Long Running Exhibition', 'Winter Market', 'Sticky Event']);
    expect(res.body).toMatchObject({ total: 14, total_pages: 5 });
  });

  it('starts_after with strict_dates uses the exact time (sample 069)', async () => {
    const res = await list({ starts_after: '2027-01-15 19:00:00', strict_dates: 'true', per_page: 3 });

    expect(titles(res)).toEqual(['Jazz Night', 'Pottery Workshop', 'New York Brunch Talk']);
    expect(res.body.total).toBe(11);
  });

  it('combines starts_after and ends_before', async () => {
    const res = await list({ starts_after: '2027-04-01', ends_before: '2027-04-04' });

    expect(titles(res)).toEqual(['Community Meetup #2', 'Community Meetup #3', 'Community Meetup #4']);
  });
});

describe('categories and tags', () => {
  it('filters by a category ID (sample 070)', async () => {
    const res = await list({ categories: terms.Jazz! });

    expect(titles(res)).toEqual(['Jazz Night']);
  });

  it('includes child categories of a parent given by slug (sample 071)', async () => {
    const res = await list({ categories: 'music', start_date: '2020-01-01' });

    expect(titles(res)).toEqual(['Old Play', 'Jazz Night', 'Multi-organizer Gala', 'Summer Festival']);
    expect(res.body.total).toBe(4);
  });

  it('ORs two slugs (sample 072)', async () => {
    const res = await list({ categories: 'jazz,workshops' });

    expect(titles(res)).toEqual(['Jazz Night', 'Pottery Workshop']);
  });

  it('mixes IDs and slugs, as CSV or array', async () => {
    const csv = await list({ categories: `${terms.Jazz},workshops` });
    const array = await list(`categories[]=${terms.Jazz}&categories[]=workshops`);

    expect(titles(csv)).toEqual(['Jazz Night', 'Pottery Workshop']);
    expect(titles(array)).toEqual(titles(csv));
  });

  it.each([
    ['an unknown category ID (sample 074)', { categories: 999999 }, 'categories'],
    ['an unknown category slug (sample 075)', { categories: 'no-such-category' }, 'categories'],
    ['a known and an unknown category', { categories: 'jazz,no-such-category' }, 'categories'],
    ['an unknown tag (sample 078)', { tags: 'nope' }, 'tags'],
    ['a category slug as a tag', { tags: 'jazz' }, 'tags'],
    [
      'too many categories',
      { categories: Array.from({ length: 101 }, (_, i) => `c${i}`).join(',') },
      'categories',
    ],
  ])('refuses %s with a 400 naming it', async (_label, p, param) => {
    const res = await list(p);

    expect(res.status).toBe(400);
    expect(res.body.data.params).toHaveProperty(param);
  });

  it('filters by a tag slug (sample 076)', async () => {
    const res = await list({ tags: 'free' });

    expect(titles(res)).toEqual(['Jazz Night']);
  });

  it('ORs two tag IDs: any of them (sample 077 misses the Family meetups; decisions §5 say OR)', async () => {
    const res = await list({ tags: `${terms.Outdoor},${terms.Family}` });

    expect(titles(res)).toEqual([
      'Berlin Late Show',
      'Community Meetup #1',
      'Community Meetup #3',
      'Community Meetup #5',
      'Summer Festival',
    ]);
  });

  it('ANDs categories and tags (sample 084)', async () => {
    const res = await list({ categories: 'music', tags: terms.Family!, start_date: '2020-01-01' });

    expect(titles(res)).toEqual(['Summer Festival']);
  });

  it('answers an empty list when categories and tags share no event', async () => {
    const res = await list({ categories: 'jazz', tags: 'outdoor' });

    expect(res.status).toBe(200);
    expect(titles(res)).toEqual([]);
  });

  it('applies the date window to a category filter', async () => {
    const res = await list({ categories: 'music' });

    expect(titles(res)).toEqual(['Jazz Night', 'Multi-organizer Gala', 'Summer Festival']);
  });
});

describe('featured, search and the other filters', () => {
  it('featured=true keeps featured events (sample 086)', async () => {
    const res = await list({ featured: 'true' });

    expect(titles(res)).toEqual(['Jazz Night', 'Community Meetup #3']);
  });

  it('featured=false keeps the others (sample 087)', async () => {
    const res = await list({ featured: 'false', per_page: 50 });

    expect(titles(res)).toEqual(DEFAULT_ALL.filter((t) => t !== 'Jazz Night' && t !== 'Community Meetup #3'));
    expect(res.body.total).toBe(11);
  });

  it('featured=1 and featured=0 work too', async () => {
    expect((await list({ featured: 1 })).body.total).toBe(2);
    expect((await list({ featured: 0 })).body.total).toBe(11);
  });

  it('refuses a non-boolean featured (sample 088)', async () => {
    const res = await list({ featured: 'maybe' });

    expect(res.status).toBe(400);
    expect(res.body.data.params.featured).toBe('featured is not of type boolean.');
    expect(res.body.data.details.featured.code).toBe('rest_invalid_type');
  });

  it('searches titles (sample 089)', async () => {
    const res = await list({ search: 'pottery' });

    expect(titles(res)).toEqual(['Pottery Workshop']);
  });

  it('needs every word, in title, excerpt or description (sample 090)', async () => {
    const res = await list({ search: 'meetup number 3' });

    expect(titles(res)).toEqual(['Community Meetup #3']);
  });

  it('searches the excerpt, case-insensitively', async () => {
    const res = await list({ search: 'JAZZ Downtown' });

    expect(titles(res)).toEqual(['Jazz Night']);
  });

  it('matches words across fields', async () => {
    const res = await list({ search: 'summer park' });

    expect(titles(res)).toEqual(['Summer Festival']);
  });

  it('answers no match with 200 and [] (sample 092)', async () => {
    const res = await list({ search: 'zzzzzz' });

    expect(res.status).toBe(200);
    expect(res.body.total).toBe(0);
  });

  it.each([
    ['empty (sample 091)', ''],
    ['over-long', 'x'.repeat(201)],
  ])('refuses an %s search', async (_label, search) => {
    const res = await list({ search });

    expect(res.status).toBe(400);
    expect(res.body.data.params).toHaveProperty('search');
  });

  // Issue 42 (decisions §5: "once tickets exist"): ticketed=true lists the events with a ticket, no longer a 400.
  it('ticketed=true lists no event of a calendar without tickets', async () => {
    const res = await list({ ticketed: 'true' });

    expect(res.status).toBe(200);
    expect(res.body.total).toBe(0);
  });

  it('ticketed=false filters nothing on a calendar without tickets', async () => {
    const res = await list({ ticketed: 'false', per_page: 50 });

    expect(titles(res)).toEqual(DEFAULT_ALL);
  });

  it('post_parent must name an existing event', async () => {
    const unknown = await list({ post_parent: 999999 });
    const notANumber = await list({ post_parent: 'foo-bar' });

    expect(unknown.status).toBe(400);
    expect(unknown.body.data.params).toHaveProperty('post_parent');
    expect(notANumber.status).toBe(400);
  });

  it('post_parent of an event without children answers an empty list', async () => {
    const res = await list({ post_parent: ids['Jazz Night']! });

    expect(res.status).toBe(200);
    expect(titles(res)).toEqual([]);
  });

  it.each([
    ['geoloc_lat without geoloc_lng', { geoloc_lat: 48.85 }, 'geoloc_lng'],
    ['geoloc_lng without geoloc_lat', { geoloc_lng: 2.35 }, 'geoloc_lat'],
    ['a latitude out of range', { geoloc_lat: 91, geoloc_lng: 2 }, 'geoloc_lat'],
    ['a longitude that is not a number', { geoloc_lat: 48, geoloc_lng: 'east' }, 'geoloc_lng'],
    ['a non-positive radius', { geoloc_lat: 48, geoloc_lng: 2, geoloc_radius: 0 }, 'geoloc_radius'],
    ['a non-boolean geoloc', { geoloc: 'maybe' }, 'geoloc'],
  ])('refuses %s with a 400 naming it', async (_label, p, param) => {
    const res = await list(p);

    expect(res.status).toBe(400);
    expect(res.body.data.params).toHaveProperty(param);
  });

  it('geoloc=true keeps nothing when no venue has coordinates; geoloc=false keeps everything', async () => {
    expect(titles(await list({ geoloc: true }))).toEqual([]);
    expect(titles(await list({ geoloc: false, per_page: 50 }))).toEqual(DEFAULT_ALL);
  });

  it.each([
    ['venue', 'foo'],
    ['venue', 999999],
    ['organizer', 999999],
  ])('refuses %s=%j with a 400 naming it', async (param, value) => {
    const res = await list({ [param]: value });

    expect(res.status).toBe(400);
    expect(res.body.data.params).toHaveProperty(param);
  });
});

describe('include (reference §4.4, decisions §5)', () => {
  it('ignores the default window (sample 093, where the reference does not)', async () => {
    const res = await list({ include: `${ids['Old Play']},${ids['Jazz Night']}` });

    expect(titles(res)).toEqual(['Old Play', 'Jazz Night']);
    expect(res.body.total).toBe(2);
  });

  it('ignores explicit date filters too (sample 094)', async () => {
    const res = await list({
      include: `${ids['Old Play']},${ids['Jazz Night']}`,
      start_date: '2027-01-01',
      end_date: '2027-01-02',
      starts_after: '2030-01-01',
    });

    expect(titles(res)).toEqual(['Old Play', 'Jazz Night']);
  });

  it('orders by start then ID whatever the order asked for, as an array too', async () => {
    const res = await list(
      `include[]=${ids['Summer Festival']}&include[]=${ids['Winter Market']}&include[]=${ids['Jazz Night']}`,
    );

    expect(titles(res)).toEqual(['Winter Market', 'Jazz Night', 'Summer Festival']);
  });

  it('still hides drafts from visitors and hidden events from everyone', async () => {
    const res = await list({
      include: `${ids['Draft Planning Meeting']},${ids['Hidden Event']},${ids['Jazz Night']}`,
    });
    const asEditor = await list(
      { include: `${ids['Draft Planning Meeting']},${ids['Hidden Event']}` },
      editor,
    );

    expect(titles(res)).toEqual(['Jazz Night']);
    expect(titles(asEditor)).toEqual(['Draft Planning Meeting']);
  });

  it('ANDs with the other filters', async () => {
    const both = `${ids['Jazz Night']},${ids['Summer Festival']}`;

    expect(titles(await list({ include: both, categories: 'workshops' }))).toEqual([]);
    expect(titles(await list({ include: both, categories: 'music' }))).toEqual([
      'Jazz Night',
      'Summer Festival',
    ]);
    expect(titles(await list({ include: both, featured: true }))).toEqual(['Jazz Night']);
    expect(titles(await list({ include: both, search: 'park' }))).toEqual(['Summer Festival']);
    expect(titles(await list({ include: both, tags: 'outdoor' }))).toEqual(['Summer Festival']);
  });

  it('answers IDs that are no events with an empty list', async () => {
    const venue = await api.post('/venues', { venue: 'Not An Event' }, { token: editor });

    const res = await list({ include: `999999,${venue.body.id}` });

    expect(res.status).toBe(200);
    expect(titles(res)).toEqual([]);
  });

  it.each([
    ['not a number (sample 095)', 'abc'],
    ['a negative number', '-3'],
    ['too many entries', Array.from({ length: 101 }, (_, i) => i + 1).join(',')],
  ])('refuses an include that is %s', async (_label, include) => {
    const res = await list({ include });

    expect(res.status).toBe(400);
    expect(res.body.data.params).toHaveProperty('include');
  });
});

describe('combinations', () => {
  it('featured within a parent category', async () => {
    const res = await list({ featured: true, categories: 'music', start_date: '2020-01-01' });

    expect(titles(res)).toEqual(['Jazz Night']);
  });

  it('tag, search and featured together', async () => {
    const res = await list({ tags: 'family', search: 'meetup', featured: true });

    expect(titles(res)).toEqual(['Community Meetup #3']);
  });

  it('tag and search without featured', async () => {
    const res = await list({ tags: 'family', search: 'meetup' });

    expect(titles(res)).toEqual(['Community Meetup #1', 'Community Meetup #3', 'Community Meetup #5']);
  });

  it('status and search for editors', async () => {
    const res = await list({ status: 'draft', search: 'planning' }, editor);

    expect(titles(res)).toEqual(['Draft Planning Meeting']);
  });

  it('a category, a date window and paging', async () => {
    const res = await list({ categories: 'music', start_date: '2020-01-01', per_page: 2, page: 2 });

    expect(titles(res)).toEqual(['Multi-organizer Gala', 'Summer Festival']);
    expect(res.body).toMatchObject({ total: 4, total_pages: 2 });
  });

  it('featured=false with a tag', async () => {
    const res = await list({ featured: false, tags: 'family' });

    expect(titles(res)).toEqual(['Community Meetup #1', 'Community Meetup #5', 'Summer Festival']);
  });
});

describe('order: start, then ID', () => {
  const made: number[] = [];
  let tag: number;

  beforeAll(async () => {
    tag = (await api.post('/tags', { name: 'Ordering' }, { token: editor })).body.id;
    const at = async (title: string, start: string, end: string, timezone = 'UTC') =>
      made.push((await create({ title, start_date: start, end_date: end, timezone, tags: [tag] })).id);
    await at('Order Tie B first created', '2027-09-02 10:00', '2027-09-02 11:00');
    await at('Order Tie A second created', '2027-09-02 10:00', '2027-09-02 11:00');
    await at('Order UTC Noon', '2027-09-01 12:00', '2027-09-01 13:00');
    await at('Order Tokyo Ten', '2027-09-01 10:00', '2027-09-01 11:00', 'Asia/Tokyo');
    await at('Order New York Nine', '2027-09-01 09:00', '2027-09-01 10:00', 'America/New_York');
  });
  afterAll(async () => {
    for (const id of made) await forceDelete(id);
  });

  it('orders by the events’ local start times, then by ID (reference §4.2)', async () => {
    const res = await list({ tags: tag });

    expect(titles(res)).toEqual([
      'Order New York Nine',
      'Order Tokyo Ten',
      'Order UTC Noon',
      'Order Tie B first created',
      'Order Tie A second created',
    ]);
  });

  it('orders the same way on the path that reads every candidate', async () => {
    const res = await list({ tags: tag, search: 'order' });

    expect(titles(res)).toEqual([
      'Order New York Nine',
      'Order Tokyo Ten',
      'Order UTC Noon',
      'Order Tie B first created',
      'Order Tie A second created',
    ]);
  });
});

describe('totals from day tallies agree with totals from reading the events', () => {
  const made: number[] = [];
  let leaf: number;
  let tag: number;

  beforeAll(async () => {
    leaf = (
      await api.post('/categories', { name: 'Tallied Leaf', parent: terms.Workshops }, { token: editor })
    ).body.id;
    tag = (await api.post('/tags', { name: 'Tallied Tag' }, { token: editor })).body.id;
    const at = async (title: string, fields: Record<string, unknown>) =>
      made.push(
        (await create({ title, description: 'tallyword', categories: [leaf], tags: [tag], ...fields })).id,
      );
    await at('T1 plain', { start_date: '2027-02-01 10:00', end_date: '2027-02-01 11:00' });
    await at('T2 over midnight', { start_date: '2027-02-01 23:00', end_date: '2027-02-02 01:00' });
    await at('T3 all day', { start_date: '2027-02-03', end_date: '2027-02-03', all_day: true });
    await at('T4 all days', { start_date: '2027-02-03', end_date: '2027-02-05', all_day: true });
    await at('T5 draft', { start_date: '2027-02-04 10:00', end_date: '2027-02-04 11:00', status: 'draft' });
    await at('T6 hidden', {
      start_date: '2027-02-04 12:00',
      end_date: '2027-02-04 13:00',
      hide_from_listings: true,
    });
    await at('T7 trashed', { start_date: '2027-02-04 14:00', end_date: '2027-02-04 15:00' });
    await api.del(`/events/${made.at(-1)}`, { token: editor });
    await at('T8 private', {
      start_date: '2027-02-06 10:00',
      end_date: '2027-02-06 11:00',
      status: 'private',
    });
    await at('T9 moved', { start_date: '2027-03-01 10:00', end_date: '2027-03-01 11:00' });
    await api.patch(
      `/events/${made.at(-1)}`,
      { start_date: '2027-02-07 10:00', end_date: '2027-02-07 11:00' },
      { token: editor },
    );
    await at('T10 unlinked', { start_date: '2027-02-07 12:00', end_date: '2027-02-07 13:00' });
    await api.patch(`/events/${made.at(-1)}`, { categories: [], tags: [] }, { token: editor });
    await at('T11 New York evening', {
      start_date: '2027-02-08 22:00',
      end_date: '2027-02-08 23:30',
      timezone: 'America/New_York',
    });
    await at('T12 start of yesterday', {
      start_date: '2026-11-21 00:00:00',
      end_date: '2026-11-21 02:00:00',
    });
    await at('T13 ends at 23:59:59', { start_date: '2027-02-09 23:00:00', end_date: '2027-02-09 23:59:59' });
    await at('T14 unpublished then published', {
      start_date: '2027-02-10 09:00',
      end_date: '2027-02-10 10:00',
      status: 'draft',
    });
    await api.patch(`/events/${made.at(-1)}`, { status: 'publish' }, { token: editor });
    await at('T15 featured later', { start_date: '2027-02-11 09:00', end_date: '2027-02-11 10:00' });
    await api.patch(`/events/${made.at(-1)}`, { featured: true }, { token: editor });
  });
  afterAll(async () => {
    for (const id of made) await forceDelete(id);
  });

  it('counts by hand what the tallies count for a leaf category', async () => {
    const visitor = await list({ categories: leaf, per_page: 50 });
    const asEditor = await list({ categories: leaf, per_page: 50 }, editor);

    expect(titles(visitor)).toEqual([
      'T12 start of yesterday',
      'T1 plain',
      'T2 over midnight',
      'T3 all day',
      'T4 all days',
      'T9 moved',
      'T11 New York evening',
      'T13 ends at 23:59:59',
      'T14 unpublished then published',
      'T15 featured later',
    ]);
    expect(visitor.body.total).toBe(10);
    expect(asEditor.body.total).toBe(12);
  });

  const windows: Params[] = [
    {},
    { start_date: '2027-02-01', end_date: '2027-02-03' },
    { start_date: '2027-02-02', end_date: '2027-02-05' },
    { start_date: '2027-02-09', end_date: '2027-02-09' },
    { start_date: '2026-11-21', end_date: '2027-02-01' },
    { starts_after: '2027-02-02' },
    { starts_before: '2027-02-04' },
    { ends_before: '2027-02-03' },
    { ends_before: '2027-02-09' },
    { ends_after: '2027-02-03' },
    { ends_after: '2027-02-09' },
    { ends_after: '2027-02-02', starts_before: '2027-02-06' },
    { start_date: '2027-02-03', ends_before: '2027-02-06' },
  ];

  describe.each([
    ['a leaf category', () => ({ categories: leaf })],
    ['a tag', () => ({ tags: tag })],
  ])('%s', (_label, scope) => {
    it.each(windows)('agrees with the search path for %j, for visitors and editors', async (window) => {
      for (const token of [undefined, editor]) {
        const tallied = await list({ ...scope(), ...window, per_page: 50 }, token);
        const read = await list({ ...scope(), ...window, search: 'tallyword', per_page: 50 }, token);

        expect(tallied.status).toBe(200);
        expect(tallied.body.total).toBe(read.body.total);
        expect(titles(tallied)).toEqual(titles(read));
      }
    });
  });

  it.each(windows.filter((w) => w.start_date !== undefined && w.end_date !== undefined))(
    'agrees for all events and for featured ones with the strict reading of the same whole days: %j',
    async (window) => {
      const strict = {
        start_date: `${window.start_date} 00:00:00`,
        end_date: `${window.end_date} 23:59:59`,
        strict_dates: true,
      };
      for (const extra of [{}, { featured: true }] as Params[])
        for (const token of [undefined, editor]) {
          const tallied = await list({ ...window, ...extra, per_page: 50 }, token);
          const read = await list({ ...strict, ...extra, per_page: 50 }, token);

          expect(tallied.body.total).toBe(read.body.total);
          expect(titles(tallied)).toEqual(titles(read));
        }
    },
  );

  it('agrees page by page', async () => {
    for (const page of [1, 2, 3]) {
      const tallied = await list({ categories: leaf, per_page: 4, page });
      const read = await list({ categories: leaf, search: 'tallyword', per_page: 4, page });

      expect(titles(tallied)).toEqual(titles(read));
      expect(tallied.body.total_pages).toBe(read.body.total_pages);
    }
  });
});
