import { describe, expect, it } from 'vitest';
import { useStack } from '../support/use-stack';

/**
 * Single events: create, read by ID and slug, partial update, trash / restore / permanent delete,
 * the representation of reference §3.1, time zones, cost, roles, and the term counts that change in
 * the same write. Lists are in event-list.test.ts; venues and organizers in event-links.test.ts.
 */
const {
  api,
  tokens: { editor, admin, author, otherAuthor, contributor, otherContributor, subscriber },
} = await useStack({
  tokens: {
    editor: 'editor',
    admin: 'administrator',
    author: ['author', 'author-1'],
    otherAuthor: ['author', 'author-2'],
    contributor: ['contributor', 'contributor-1'],
    otherContributor: ['contributor', 'contributor-2'],
    subscriber: 'subscriber',
  },
});

const WHEN = { start_date: '2027-08-01 10:00:00', end_date: '2027-08-01 11:00:00' };
const ALL_STATUSES = 'publish,future,draft,pending,private,trash';
const WALL_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

const EVENT_KEYS = [
  'id',
  'global_id',
  'global_id_lineage',
  'author',
  'status',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'url',
  'rest_url',
  'title',
  'description',
  'excerpt',
  'slug',
  'image',
  'all_day',
  'start_date',
  'start_date_details',
  'end_date',
  'end_date_details',
  'utc_start_date',
  'utc_start_date_details',
  'utc_end_date',
  'utc_end_date_details',
  'timezone',
  'timezone_abbr',
  'cost',
  'cost_details',
  'website',
  'show_map',
  'show_map_link',
  'hide_from_listings',
  'sticky',
  'featured',
  'categories',
  'tags',
  'venue',
  'organizer',
  // Issue 27: every event carries its series fields after reference §3.1's keys (null on a single event).
  'series_id',
  'recurrence',
  'recurrence_text',
  'occurrence_start',
  'is_exception',
];

const create = async (body: Record<string, unknown>, token = editor) => {
  const res = await api.post('/events', { ...WHEN, ...body }, { token });
  expect(res.status).toBe(201);
  return res.body;
};
const term = async (collection: 'categories' | 'tags', body: Record<string, unknown>) => {
  const res = await api.post(`/${collection}`, body, { token: editor });
  expect(res.status).toBe(201);
  return res.body;
};
/** Every stored event whatever its status: what a rejected write must leave unchanged. */
const storedEvents = async () =>
  (
    await api.get(`/events?status=${ALL_STATUSES}&start_date=1970-01-02&end_date=2100-01-01&per_page=1`, {
      token: editor,
    })
  ).body.total as number;
const countOf = async (collection: 'categories' | 'tags', id: number, token?: string) =>
  (await api.get(`/${collection}/${id}`, { token })).body.count as number;
/** The representation minus what every write changes. */
const stable = (e: Record<string, unknown>) => {
  const { modified: _m, modified_utc: _mu, ...rest } = e;
  return rest;
};

describe('POST /events', () => {
  it('creates with 201, a Location header and every key of reference §3.1 in order', async () => {
    const res = await api.post('/events', { title: 'Shape Check', ...WHEN }, { token: editor });

    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(EVENT_KEYS);
    expect(res.headers.get('location')).toBe(`${api.base}/events/${res.body.id}`);
    expect(res.body.rest_url).toBe(`${api.base}/events/${res.body.id}`);
  });

  it('gives every key the reference type: author a string, details zero-padded strings', async () => {
    const e = await create({
      title: 'Types Check',
      start_date: '2027-01-05 08:03:09',
      end_date: '2027-01-05 09:04:01',
    });

    expect(e).toMatchObject({
      id: expect.any(Number),
      global_id: `calendar.test?id=${e.id}`,
      global_id_lineage: [`calendar.test?id=${e.id}`],
      author: 'user-editor',
      status: 'publish',
      url: 'http://calendar.test/event/types-check/',
      title: 'Types Check',
      slug: 'types-check',
    });
    for (const k of [
      'date',
      'date_utc',
      'modified',
      'modified_utc',
      'start_date',
      'end_date',
      'utc_start_date',
      'utc_end_date',
    ])
      expect(e[k]).toMatch(WALL_TIME);
    expect(e.start_date_details).toEqual({
      year: '2027',
      month: '01',
      day: '05',
      hour: '08',
      minutes: '03',
      seconds: '09',
    });
    expect(e.end_date_details).toEqual({
      year: '2027',
      month: '01',
      day: '05',
      hour: '09',
      minutes: '04',
      seconds: '01',
    });
    expect(e.utc_start_date_details).toEqual(e.start_date_details);
  });

  it('fills the defaults of a minimal event (sample 028)', async () => {
    const e = await create({
      title: 'Winter Market',
      start_date: '2026-12-05 09:00:00',
      end_date: '2026-12-05 17:00:00',
    });

    expect(e).toMatchObject({
      status: 'publish',
      description: '',
      excerpt: '',
      image: false,
      all_day: false,
      start_date: '2026-12-05 09:00:00',
      end_date: '2026-12-05 17:00:00',
      utc_start_date: '2026-12-05 09:00:00',
      utc_end_date: '2026-12-05 17:00:00',
      timezone: 'UTC',
      timezone_abbr: 'UTC',
      cost: '',
      cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] },
      website: e.url,
      show_map: false,
      show_map_link: false,
      hide_from_listings: false,
      sticky: false,
      featured: false,
      categories: [],
      tags: [],
      venue: [],
      organizer: [],
    });
  });

  it('stores the flags it is sent', async () => {
    const e = await create({
      title: 'All Flags',
      show_map: true,
      show_map_link: true,
      hide_from_listings: true,
      sticky: true,
      featured: true,
    });

    expect(e).toMatchObject({
      show_map: true,
      show_map_link: true,
      hide_from_listings: true,
      sticky: true,
      featured: true,
    });
  });

  it('accepts a form-encoded body with "1" for true and a tag slug (sample 170)', async () => {
    const free = await term('tags', { name: 'Free Entry' });

    const res = await api.call('POST', '/events', {
      form: {
        title: 'Form Encoded',
        start_date: '2027-10-01 10:00:00',
        end_date: '2027-10-01 12:00:00',
        featured: '1',
        sticky: '0',
        tags: 'free-entry',
      },
      token: editor,
    });

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: 'Form Encoded',
      featured: true,
      sticky: false,
      start_date: '2027-10-01 10:00:00',
    });
    expect(res.body.tags.map((t: { id: number }) => t.id)).toEqual([free.id]);
  });

  it('strips markup from the title and unsafe HTML from description and excerpt', async () => {
    const e = await create({
      title: '<b>Bold</b> Night',
      description: '<p onclick="x()">An evening of <strong>live jazz</strong>.<script>alert(1)</script></p>',
      excerpt: '<a href="javascript:alert(1)">Live</a> jazz',
    });

    expect(e.title).toBe('Bold Night');
    expect(e.description).toBe('<p>An evening of <strong>live jazz</strong>.</p>');
    expect(e.excerpt).toBe('<a>Live</a> jazz');
  });

  it('uses the given publication date and slug, and a pending status (sample 172)', async () => {
    const e = await create({
      title: 'Dated Post',
      date: '2026-01-02 03:04:05',
      slug: 'custom-slug-here',
      status: 'pending',
      website: 'https://example.com/dated',
    });

    expect(e).toMatchObject({
      date: '2026-01-02 03:04:05',
      date_utc: '2026-01-02 03:04:05',
      slug: 'custom-slug-here',
      status: 'pending',
      website: 'https://example.com/dated',
    });
  });

  it('reads date_utc as UTC', async () => {
    const e = await create({ title: 'Dated UTC', date_utc: '2026-02-03T04:05:06Z' });

    expect(e.date_utc).toBe('2026-02-03 04:05:06');
  });

  it('ignores generated fields sent by the client', async () => {
    const e = await create({
      title: 'No Overrides',
      utc_start_date: '1999-01-01 00:00:00',
      timezone_abbr: 'XYZ',
      cost_details: { values: ['1'] },
      rest_url: 'https://evil.example/',
    });

    expect(e).toMatchObject({
      utc_start_date: WHEN.start_date,
      timezone_abbr: 'UTC',
      cost_details: { values: [] },
    });
    expect(e.rest_url).toBe(`${api.base}/events/${e.id}`);
  });
});

describe('slugs', () => {
  it('derives the slug from the title and gives a taken one the next suffix', async () => {
    const first = await create({ title: 'Slugged Gala' });
    const second = await create({ title: 'Slugged Gala' });
    const third = await create({ title: 'Slugged   GALA!' });

    expect([first.slug, second.slug, third.slug]).toEqual([
      'slugged-gala',
      'slugged-gala-2',
      'slugged-gala-3',
    ]);
    expect(second.url).toBe('http://calendar.test/event/slugged-gala-2/');
  });

  it('gives drafts a slug too', async () => {
    const e = await create({ title: 'Draft Planning Meeting', status: 'draft' });

    expect(e.slug).toBe('draft-planning-meeting');
  });

  it('normalises a sent slug and suffixes it when taken', async () => {
    await create({ title: 'Own Slug One', slug: 'My Own Slug' });

    const again = await create({ title: 'Own Slug Two', slug: 'my-own-slug' });

    expect(again.slug).toBe('my-own-slug-2');
  });

  it('keeps slugs unique under concurrent creates', async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        api.post('/events', { title: 'Race Event', ...WHEN }, { token: editor }),
      ),
    );

    expect(results.map((r) => r.status)).toEqual(Array(6).fill(201));
    const slugs = results.map((r) => r.body.slug);
    expect(new Set(slugs).size).toBe(6);
    expect(slugs).toContain('race-event');
  });
});

describe('time zones and dates', () => {
  it('reads wall times in America/New_York in winter (sample 024)', async () => {
    const e = await create({
      title: 'New York Brunch Talk',
      start_date: '2027-03-05 09:00:00',
      end_date: '2027-03-05 10:30:00',
      timezone: 'America/New_York',
    });

    expect(e).toMatchObject({
      start_date: '2027-03-05 09:00:00',
      end_date: '2027-03-05 10:30:00',
      utc_start_date: '2027-03-05 14:00:00',
      utc_end_date: '2027-03-05 15:30:00',
      timezone: 'America/New_York',
      timezone_abbr: 'EST',
    });
    expect(e.utc_start_date_details).toEqual({
      year: '2027',
      month: '03',
      day: '05',
      hour: '14',
      minutes: '00',
      seconds: '00',
    });
  });

  it('reads wall times in America/New_York in summer, crossing the UTC day', async () => {
    const e = await create({
      title: 'NY Fireworks',
      start_date: '2027-07-04 21:00:00',
      end_date: '2027-07-04 22:30:00',
      timezone: 'America/New_York',
    });

    expect(e).toMatchObject({
      utc_start_date: '2027-07-05 01:00:00',
      utc_end_date: '2027-07-05 02:30:00',
      timezone_abbr: 'EDT',
    });
  });

  it('moves a Berlin event after local midnight to the previous UTC day (sample 025)', async () => {
    const e = await create({
      title: 'Berlin Late Show',
      start_date: '2027-03-07 00:30:00',
      end_date: '2027-03-07 02:00:00',
      timezone: 'Europe/Berlin',
    });

    expect(e).toMatchObject({
      start_date: '2027-03-07 00:30:00',
      utc_start_date: '2027-03-06 23:30:00',
      utc_end_date: '2027-03-07 01:00:00',
      timezone: 'Europe/Berlin',
      timezone_abbr: 'CET',
    });
  });

  it('spans the Berlin spring-forward night of 2027-03-28 as one hour', async () => {
    const e = await create({
      title: 'Berlin Clock Change',
      start_date: '2027-03-28 01:30:00',
      end_date: '2027-03-28 03:30:00',
      timezone: 'Europe/Berlin',
    });

    expect(e).toMatchObject({
      utc_start_date: '2027-03-28 00:30:00',
      utc_end_date: '2027-03-28 01:30:00',
      timezone_abbr: 'CET',
    });
  });

  it('uses summer time for a Berlin event after the change', async () => {
    const e = await create({
      title: 'Berlin Summer Time',
      start_date: '2027-03-28 10:00:00',
      end_date: '2027-03-28 11:00:00',
      timezone: 'Europe/Berlin',
    });

    expect(e).toMatchObject({ utc_start_date: '2027-03-28 08:00:00', timezone_abbr: 'CEST' });
  });

  it('spans the New York fall-back night of 2027-11-07 as four hours', async () => {
    const e = await create({
      title: 'NY Fall Back',
      start_date: '2027-11-07 00:30:00',
      end_date: '2027-11-07 03:30:00',
      timezone: 'America/New_York',
    });

    expect(e).toMatchObject({ utc_start_date: '2027-11-07 04:30:00', utc_end_date: '2027-11-07 08:30:00' });
  });

  it.each([
    ['UTC+2', '2027-01-15 08:00:00'],
    ['UTC-5:30', '2027-01-15 15:30:00'],
    ['UTC+14', '2027-01-14 20:00:00'],
  ])('reads wall times in the offset zone %s and names it', async (timezone, utcStart) => {
    const e = await create({
      title: `Offset ${timezone}`,
      start_date: '2027-01-15 10:00:00',
      end_date: '2027-01-15 11:00:00',
      timezone,
    });

    expect(e).toMatchObject({
      start_date: '2027-01-15 10:00:00',
      utc_start_date: utcStart,
      timezone,
      timezone_abbr: timezone,
    });
  });

  // Issue 39, decisions §9: the reference's answers (Intl's names were GMT, GMT-3 and GMT+5:45).
  it.each([
    ['Europe/London', '2027-01-15 10:00:00', 'GMT'],
    ['America/Argentina/Buenos_Aires', '2027-01-15 10:00:00', '-03'],
    ['Asia/Kathmandu', '2027-01-15 10:00:00', '+0545'],
    ['Europe/London', '2027-07-15 10:00:00', 'BST'],
  ])('gives %s at %s the timezone_abbr %s', async (timezone, start, abbr) => {
    const e = await create({ title: `Abbr ${timezone}`, start_date: start, end_date: start, timezone });
    const read = (await api.get(`/events/${e.id}`)).body;

    expect([e.timezone_abbr, read.timezone_abbr]).toEqual([abbr, abbr]);
  });

  it('reads Asia/Tokyo and the Y-m-d H:i format (sample 168)', async () => {
    const e = await create({
      title: 'Tokyo Concert',
      start_date: '2027-09-01 19:00',
      end_date: '2027-09-01 21:00',
      timezone: 'Asia/Tokyo',
    });

    expect(e).toMatchObject({
      start_date: '2027-09-01 19:00:00',
      utc_start_date: '2027-09-01 10:00:00',
      utc_end_date: '2027-09-01 12:00:00',
      timezone_abbr: 'JST',
    });
  });

  it('converts an ISO 8601 input with an offset into the event zone', async () => {
    const e = await create({
      title: 'ISO Offset',
      start_date: '2027-05-01T10:00:00+02:00',
      end_date: '2027-05-01T12:00:00+02:00',
    });

    expect(e).toMatchObject({
      start_date: '2027-05-01 08:00:00',
      end_date: '2027-05-01 10:00:00',
      timezone: 'UTC',
    });
  });

  it('reads Unix timestamps', async () => {
    const e = await create({ title: 'Timestamped', start_date: 1800000000, end_date: '1800003600' });

    expect([e.start_date, e.end_date]).toEqual(['2027-01-15 08:00:00', '2027-01-15 09:00:00']);
  });

  it('widens a one-day all-day event to the whole day (sample 023)', async () => {
    const e = await create({
      title: 'Pottery Workshop',
      all_day: true,
      start_date: '2027-02-10',
      end_date: '2027-02-10',
    });

    expect(e).toMatchObject({
      all_day: true,
      start_date: '2027-02-10 00:00:00',
      end_date: '2027-02-10 23:59:59',
    });
  });

  it('widens a multi-day all-day event from its first to its last whole day', async () => {
    const e = await create({
      title: 'Three Day Fair',
      all_day: true,
      start_date: '2027-02-10 15:00',
      end_date: '2027-02-12 09:00',
    });

    expect([e.start_date, e.end_date]).toEqual(['2027-02-10 00:00:00', '2027-02-12 23:59:59']);
  });

  it('widens an all-day event in its own zone, across the Berlin clock change', async () => {
    const e = await create({
      title: 'Berlin Weekend',
      all_day: true,
      start_date: '2027-03-27',
      end_date: '2027-03-28',
      timezone: 'Europe/Berlin',
    });

    expect(e).toMatchObject({
      start_date: '2027-03-27 00:00:00',
      end_date: '2027-03-28 23:59:59',
      utc_start_date: '2027-03-26 23:00:00',
      utc_end_date: '2027-03-28 21:59:59',
    });
  });

  it('accepts an end equal to the start', async () => {
    const e = await create({
      title: 'Instant',
      start_date: '2027-08-01 10:00:00',
      end_date: '2027-08-01 10:00:00',
    });

    expect(e.end_date).toBe(e.start_date);
  });
});

describe('cost (reference §3.6)', () => {
  it.each([
    ['15', '$15', ['15'], { currency_symbol: '', currency_position: '' }],
    ['10 - 25', '$10 – $25', ['10', '25'], {}],
    // Decisions §9 (issue 39): the "$" written before the amounts is kept as a prefix (the reference,
    // sample 027, keeps none for a range in one string; its display is the same).
    ['$20 - $50', '$20 – $50', ['20', '50'], { currency_symbol: '$', currency_position: 'prefix' }],
    ['Free', 'Free', ['Free'], {}],
    ['20$', '20$', ['20'], { currency_symbol: '$', currency_position: 'postfix' }],
    [
      ['0$', '20$', '30$'],
      'Free – 30$',
      ['0', '20', '30'],
      { currency_symbol: '$', currency_position: 'postfix' },
    ],
    [['10', '25.50'], '$10 – $25.50', ['10', '25.50'], {}],
    // Decisions §9 (issue 39): the amount keeps its written form in `cost` (it was "$25.55").
    ['25,55', '$25,55', ['25.55'], {}],
    // Decisions §9: nothing is turned into "$" (the reference shows "$6.50 – $8.50").
    [
      '€6.50 - €8.50',
      '€6.50 – €8.50',
      ['6.50', '8.50'],
      { currency_symbol: '€', currency_position: 'prefix' },
    ],
    [12, '$12', ['12'], {}],
    ['', '', [], { currency_symbol: '', currency_code: '', currency_position: '' }],
  ])('shows %j as cost %j with values %j', async (cost, display, values, details) => {
    const e = await create({ title: 'Costly', cost });

    expect(e.cost).toEqual(display);
    expect(e.cost_details).toMatchObject({ ...details, values });
    expect(Object.keys(e.cost_details)).toEqual([
      'currency_symbol',
      'currency_code',
      'currency_position',
      'values',
    ]);
  });
});

describe('cost as a real site keeps it (issue 39, decisions §9)', () => {
  // The reference's answers for the same writes.
  it.each([
    ['£8.50', '£8.50', ['8.50'], '£', 'prefix'],
    ['€15', '€15', ['15'], '€', 'prefix'],
    ['¥3000', '¥3000', ['3000'], '¥', 'prefix'],
    ['CHF 20', 'CHF20', ['20'], 'CHF', 'prefix'],
    ['USD 10', 'USD10', ['10'], 'USD', 'prefix'],
    ['R$ 30', 'R$30', ['30'], 'R$', 'prefix'],
    ['15 €', '15€', ['15'], '€', 'postfix'],
    [['$5', '$10'], '$5 – $10', ['5', '10'], '$', 'prefix'],
    ['$1,000', '$1,000', ['1000'], '$', 'prefix'],
    ['$12,50', '$12,50', ['12.50'], '$', 'prefix'],
  ])('keeps %j as cost %j, values %j, currency %j %j', async (cost, display, values, symbol, position) => {
    const e = await create({ title: 'Priced', cost });
    const read = (await api.get(`/events/${e.id}`)).body;

    for (const got of [e, read])
      expect([got.cost, got.cost_details]).toEqual([
        display,
        { currency_symbol: symbol, currency_code: '', currency_position: position, values },
      ]);
  });

  it('keeps the currency through an update of another field, and changes it with the cost', async () => {
    const e = await create({ title: 'Repriced', cost: '£8.50' });

    const other = await api.patch(`/events/${e.id}`, { title: 'Repriced again' }, { token: editor });
    expect([other.body.cost, other.body.cost_details.currency_symbol]).toEqual(['£8.50', '£']);
    const changed = await api.patch(`/events/${e.id}`, { cost: '12 €' }, { token: editor });
    expect([changed.body.cost, changed.body.cost_details]).toEqual([
      '12€',
      { currency_symbol: '€', currency_code: '', currency_position: 'postfix', values: ['12'] },
    ]);
  });
});

describe('website and image', () => {
  it('shows the event page as website when none is given', async () => {
    const e = await create({ title: 'Site Default' });

    expect(e.website).toBe('http://calendar.test/event/site-default/');
  });

  // Issue 39, decisions §9: "" read back as "" (the reference shows the page).
  it('shows the event page as website when "" is given on create', async () => {
    const e = await create({ title: 'Empty Site', website: '' });
    const read = (await api.get(`/events/${e.id}`)).body;

    expect([e.website, read.website]).toEqual([e.url, e.url]);
  });

  it('keeps a given http(s) website', async () => {
    const e = await create({ title: 'Own Site', website: 'https://example.com/jazz-night' });

    expect(e.website).toBe('https://example.com/jazz-night');
  });

  it.each(['not a url', 'ftp://example.com/x', 'javascript:alert(1)'])(
    'refuses the website %j with a 400 naming website',
    async (website) => {
      const res = await api.post('/events', { title: 'Bad Site', ...WHEN, website }, { token: editor });

      expect(res.status).toBe(400);
      expect(res.body.code).toBe('rest_invalid_param');
      expect(res.body.data.params).toHaveProperty('website');
    },
  );

  it('reads an image URL back as {url, id: null, extension}', async () => {
    const e = await create({ title: 'Poster', image: 'https://cdn.example.com/uploads/poster.PNG?v=2' });

    expect(e.image).toEqual({
      url: 'https://cdn.example.com/uploads/poster.PNG?v=2',
      id: null,
      extension: 'png',
    });
  });

  it.each([
    ['a number', 11],
    ['a numeric string', '11'],
  ])('refuses an image ID given as %s: there is no media library (sample 020)', async (_label, image) => {
    const before = await storedEvents();

    const res = await api.post('/events', { title: 'Int Image', ...WHEN, image }, { token: editor });

    expect(res.status).toBe(400);
    expect(res.body.data.params.image).toMatch(/media library/);
    expect(await storedEvents()).toBe(before);
  });

  it('refuses an image that is not an http(s) URL', async () => {
    const res = await api.post(
      '/events',
      { title: 'Bad Image', ...WHEN, image: 'foo bar' },
      { token: editor },
    );

    expect(res.status).toBe(400);
    expect(res.body.data.params).toHaveProperty('image');
  });
});

describe('categories and tags on events', () => {
  it('links categories by ID, slug or name and embeds them in the shape of reference §3.4(a), by name', async () => {
    const music = await term('categories', { name: 'Embed Music' });
    const jazz = await term('categories', { name: 'Embed Jazz', parent: music.id });
    const arts = await term('categories', { name: 'Embed Arts', description: 'All the arts' });

    const e = await create({ title: 'Embedded Terms', categories: [jazz.id, 'embed-music', 'Embed Arts'] });

    expect(e.categories.map((c: { name: string }) => c.name)).toEqual([
      'Embed Arts',
      'Embed Jazz',
      'Embed Music',
    ]);
    expect(Object.keys(e.categories[0])).toEqual([
      'name',
      'slug',
      'term_group',
      'term_taxonomy_id',
      'taxonomy',
      'description',
      'parent',
      'count',
      'filter',
      'id',
      'urls',
    ]);
    expect(e.categories[0]).toEqual({
      name: 'Embed Arts',
      slug: 'embed-arts',
      term_group: 0,
      term_taxonomy_id: arts.id,
      taxonomy: 'tribe_events_cat',
      description: 'All the arts',
      parent: 0,
      count: 1,
      filter: 'raw',
      id: arts.id,
      urls: { self: `${api.base}/categories/${arts.id}`, collection: `${api.base}/categories` },
    });
    expect(e.categories[1].urls.up).toBe(`${api.base}/categories/${music.id}`);
  });

  it('embeds tags with taxonomy post_tag and no parent link', async () => {
    const tag = await term('tags', { name: 'Embed Outdoor' });

    const e = await create({ title: 'Tagged', tags: [tag.id] });

    expect(e.tags).toEqual([
      expect.objectContaining({
        id: tag.id,
        taxonomy: 'post_tag',
        parent: 0,
        count: 1,
        urls: { self: `${api.base}/tags/${tag.id}`, collection: `${api.base}/tags` },
      }),
    ]);
  });

  it('takes a CSV string of slugs (sample 173)', async () => {
    const a = await term('tags', { name: 'Csv One' });
    const b = await term('tags', { name: 'Csv Two' });

    const e = await create({ title: 'Csv Tags', tags: 'csv-one, csv-two' });

    expect(e.tags.map((t: { id: number }) => t.id).sort()).toEqual([a.id, b.id].sort());
  });

  it('creates a term for an unknown name when an editor sends it (sample 167)', async () => {
    const e = await create({
      title: 'New Terms',
      categories: ['Brand New Category'],
      tags: ['brand new tag'],
    });

    expect(e.categories).toEqual([
      expect.objectContaining({ name: 'Brand New Category', slug: 'brand-new-category', count: 1 }),
    ]);
    expect(e.tags).toEqual([expect.objectContaining({ name: 'brand new tag', slug: 'brand-new-tag' })]);
    expect((await api.get(`/categories/${e.categories[0].id}`)).status).toBe(200);
  });

  it('refuses an unknown name from an author (who may not manage terms) and creates nothing', async () => {
    const before = await storedEvents();

    const res = await api.post(
      '/events',
      { title: 'Author Terms', ...WHEN, categories: ['Author Invented'] },
      { token: author },
    );

    expect(res.status).toBe(400);
    expect(res.body.data.params).toHaveProperty('categories');
    expect(await storedEvents()).toBe(before);
    expect((await api.get('/categories?hide_empty=false&search=Author Invented')).body.total).toBe(0);
  });

  it.each(['categories', 'tags'])(
    'refuses an unknown %s ID with a 400 naming it, creating no event',
    async (param) => {
      const before = await storedEvents();

      const res = await api.post(
        '/events',
        { title: 'Unknown Term', ...WHEN, [param]: [999999] },
        { token: editor },
      );

      expect(res.status).toBe(400);
      expect(res.body.data.params).toHaveProperty(param);
      expect(res.body.data.params[param]).toMatch(/999999/);
      expect(await storedEvents()).toBe(before);
    },
  );

  it('refuses a category ID given as a tag', async () => {
    const cat = await term('categories', { name: 'Not A Tag' });

    const res = await api.post(
      '/events',
      { title: 'Wrong Taxonomy', ...WHEN, tags: [cat.id] },
      { token: editor },
    );

    expect(res.status).toBe(400);
    expect(res.body.data.params).toHaveProperty('tags');
  });

  it('creates no new term when another part of the same request is refused', async () => {
    const res = await api.post(
      '/events',
      { title: 'Half Bad', ...WHEN, categories: ['Orphan Category Name'], tags: [999999] },
      { token: editor },
    );

    expect(res.status).toBe(400);
    expect((await api.get('/categories?hide_empty=false&search=Orphan Category Name')).body.total).toBe(0);
  });

  it('links nothing for "" or [] (sample 174)', async () => {
    const e = await create({
      title: 'Empty Links',
      categories: '',
      tags: [],
      venue: '',
      organizer: '',
      cost: '',
    });

    expect(e).toMatchObject({ categories: [], tags: [], venue: [], organizer: [], cost: '' });
  });
});

describe('invalid creates', () => {
  it('answers a missing title with rest_missing_callback_param (sample 159)', async () => {
    const res = await api.post('/events', WHEN, { token: editor });

    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): title',
      data: { status: 400, params: ['title'] },
    });
  });

  it('answers missing dates with rest_missing_callback_param naming both (sample 160)', async () => {
    const res = await api.post('/events', { title: 'No dates' }, { token: editor });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): start_date, end_date',
    });
  });

  it.each([
    ['an unparseable start_date (sample 161)', { start_date: 'someday' }, 'start_date'],
    ['an impossible end_date', { end_date: '2027-02-30 10:00:00' }, 'end_date'],
    [
      'an end before the start (sample 162, which the reference moves)',
      { start_date: '2027-08-02 10:00:00', end_date: '2027-08-01 10:00:00' },
      'end_date',
    ],
    ['an unknown time zone', { timezone: 'Mars/Olympus' }, 'timezone'],
    ['an out-of-range UTC offset', { timezone: 'UTC+99' }, 'timezone'],
    ['a non-boolean featured', { featured: 'yes' }, 'featured'],
    ['a non-boolean all_day', { all_day: 'maybe' }, 'all_day'],
    ['a number as sticky', { sticky: 2 }, 'sticky'],
    ['an unknown status', { status: 'kinda_thinking_about_it' }, 'status'],
    ['an empty title', { title: '' }, 'title'],
    ['a title that is only markup', { title: '<i></i>' }, 'title'],
    ['an over-long title', { title: 'x'.repeat(1001) }, 'title'],
    ['an over-long excerpt', { excerpt: 'x'.repeat(10_001) }, 'excerpt'],
    ['an over-long description', { description: 'x'.repeat(100_001) }, 'description'],
    ['an over-long website', { website: `https://example.com/${'x'.repeat(2000)}` }, 'website'],
    ['an over-long cost', { cost: '1'.repeat(2001) }, 'cost'],
    ['too many categories', { categories: Array.from({ length: 101 }, (_, i) => `c${i}`) }, 'categories'],
    ['too many tags', { tags: Array.from({ length: 101 }, (_, i) => i + 1) }, 'tags'],
    ['too many cost entries', { cost: Array.from({ length: 101 }, (_, i) => String(i)) }, 'cost'],
    ['too many organizers', { organizer: Array.from({ length: 101 }, (_, i) => i + 1) }, 'organizer'],
    ['a title of the wrong type', { title: ['a'] }, 'title'],
  ])('refuses %s with a 400 naming the parameter, creating nothing', async (_label, body, param) => {
    const before = await storedEvents();

    const res = await api.post('/events', { title: 'Invalid', ...WHEN, ...body }, { token: editor });

    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect(res.body.message).toContain(param);
    expect(res.body.data.params).toHaveProperty(param);
    expect(res.body.data.details[param]).toMatchObject({
      code: expect.any(String),
      message: expect.any(String),
    });
    expect(await storedEvents()).toBe(before);
  });

  it('says why an end before the start is refused', async () => {
    const res = await api.post(
      '/events',
      { title: 'Backwards', start_date: '2027-08-02 10:00:00', end_date: '2027-08-01 10:00:00' },
      { token: editor },
    );

    expect(res.body.data.params.end_date).toBe('end_date must not be before start_date.');
  });

  it('answers malformed JSON with rest_invalid_json (sample 165)', async () => {
    const res = await api.call('POST', '/events', {
      raw: '{"title": "x",',
      headers: { 'content-type': 'application/json' },
      token: editor,
    });

    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_json');
  });
});

describe('who may create', () => {
  it('answers anonymous callers 401 before looking at the body (samples 155, 156)', async () => {
    const full = await api.post('/events', { title: 'Probe Event', ...WHEN });
    const bad = await api.post('/events', { title: 'no dates, no auth' });

    expect(full.status).toBe(401);
    expect(full.body).toEqual({
      code: 'rest_forbidden',
      message: 'Sorry, you are not allowed to do that.',
      data: { status: 401 },
    });
    expect(bad.status).toBe(401);
  });

  it('answers a bad token with 401 rest_invalid_token', async () => {
    const res = await api.post('/events', { title: 'Probe Event', ...WHEN }, { token: 'not.a.token' });

    expect(res.status).toBe(401);
    expect(res.body.code).toBe('rest_invalid_token');
  });

  it('answers subscribers 403 and creates nothing (sample 158)', async () => {
    const before = await storedEvents();

    const res = await api.post('/events', { title: 'Probe Event', ...WHEN }, { token: subscriber });

    expect(res.status).toBe(403);
    expect(res.body.code).toBe('rest_forbidden');
    expect(await storedEvents()).toBe(before);
  });

  it('turns a contributor’s publish into pending (sample 039)', async () => {
    const e = await create({ title: 'Contributor Event', status: 'publish' }, contributor);

    expect(e).toMatchObject({ status: 'pending', author: 'contributor-1' });
  });

  it('makes a contributor’s event a draft by default', async () => {
    const e = await create({ title: 'Contributor Default' }, contributor);

    expect(e.status).toBe('draft');
  });

  it('publishes an author’s event by default', async () => {
    const e = await create({ title: 'Author Default' }, author);

    expect(e).toMatchObject({ status: 'publish', author: 'author-1' });
  });

  it('lets editors and administrators set the author', async () => {
    const byEditor = await create({ title: 'Ghost Written', author: 'author-2' });
    const byAdmin = await create({ title: 'Admin Ghost Written', author: 'author-1' }, admin);

    expect(byEditor.author).toBe('author-2');
    expect(byAdmin.author).toBe('author-1');
  });

  it('refuses author from anyone below editor', async () => {
    const res = await api.post(
      '/events',
      { title: 'Self Promoted', ...WHEN, author: 'user-editor' },
      { token: author },
    );

    expect(res.status).toBe(400);
    expect(res.body.data.params).toHaveProperty('author');
  });
});

describe('GET /events/{id} and by slug', () => {
  it('reads an event with json_ld after every other key', async () => {
    const e = await create({ title: 'Readable', cost: '15', excerpt: 'Live jazz downtown' });

    const res = await api.get(`/events/${e.id}`);

    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual([...EVENT_KEYS, 'json_ld']);
    expect(stable(res.body)).toMatchObject({ ...stable(e), json_ld: expect.any(Object) });
  });

  it('builds json_ld as a schema.org Event with ISO dates in the event zone', async () => {
    const e = await create({
      title: 'Berlin LD',
      excerpt: 'Late show',
      start_date: '2027-03-07 00:30:00',
      end_date: '2027-03-07 02:00:00',
      timezone: 'Europe/Berlin',
      cost: '15',
      image: 'https://cdn.example.com/p.png',
    });

    const ld = (await api.get(`/events/${e.id}`)).body.json_ld;

    expect(ld).toMatchObject({
      '@context': 'http://schema.org',
      '@type': 'Event',
      name: 'Berlin LD',
      image: 'https://cdn.example.com/p.png',
      url: e.url,
      startDate: '2027-03-07T00:30:00+01:00',
      endDate: '2027-03-07T02:00:00+01:00',
      offers: expect.objectContaining({ '@type': 'Offer', price: '15', url: e.url }),
    });
    expect(ld.description).toContain('Late show');
  });

  // Issue 39, decisions §9: the stored HTML was given as it is.
  it.each([
    [
      'the description',
      { description: '<table><tr><td>Doors &amp; bar</td></tr></table><p>8 &lt; 9</p>' },
      'Doors & bar8 < 9',
    ],
    [
      'the excerpt first',
      { excerpt: '<p><strong>Late</strong> &quot;show&quot;</p>', description: '<p>Long</p>' },
      'Late "show"',
    ],
  ])('gives %s in json_ld as plain text', async (_label, fields, text) => {
    const e = await create({ title: 'Plain LD', ...fields });

    const ld = (await api.get(`/events/${e.id}`)).body.json_ld;

    expect(ld.description).toBe(text);
  });

  it('has no offers in json_ld without a numeric cost', async () => {
    const e = await create({ title: 'Priceless', cost: 'Donation' });

    const ld = (await api.get(`/events/${e.id}`)).body.json_ld;

    expect(ld).not.toHaveProperty('offers');
  });

  it('reads by slug the same event, with json_ld (sample 112)', async () => {
    const e = await create({ title: 'Jazz By Slug' });

    const bySlug = await api.get('/events/by-slug/jazz-by-slug');
    const byId = await api.get(`/events/${e.id}`);

    expect(bySlug.status).toBe(200);
    expect(bySlug.body).toEqual(byId.body);
  });

  it('shows a hidden-from-listings event on its own page (sample 107)', async () => {
    const e = await create({ title: 'Hidden Event', hide_from_listings: true });

    const res = await api.get(`/events/${e.id}`);

    expect(res.status).toBe(200);
    expect(res.body.hide_from_listings).toBe(true);
  });

  it('answers 404 rest-event-not-found for an unknown ID', async () => {
    const res = await api.get('/events/999999');

    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      code: 'rest-event-not-found',
      message: 'Event with ID 999999 does not exist.',
      data: { status: 404 },
    });
  });

  it('answers 404 for an unknown slug, naming it', async () => {
    const res = await api.get('/events/by-slug/no-such-event');

    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      code: 'rest-event-not-found',
      message: 'Event with slug "no-such-event" does not exist.',
      data: { status: 404 },
    });
  });

  it('answers 404 for the ID of a category-free other record (a venue)', async () => {
    const venue = await api.post('/venues', { venue: 'Not An Event Hall' }, { token: editor });

    const res = await api.get(`/events/${venue.body.id}`);

    expect(res.status).toBe(404);
    expect(res.body.code).toBe('rest-event-not-found');
  });

  it('answers 404 rest_no_route for a non-numeric ID', async () => {
    const res = await api.get('/events/abc');

    expect(res.status).toBe(404);
    expect(res.body.code).toBe('rest_no_route');
  });

  it('hides a draft from anonymous callers with 403 event-not-accessible (sample 108)', async () => {
    const e = await create({ title: 'Secret Draft', status: 'draft' });

    const res = await api.get(`/events/${e.id}`);

    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      code: 'event-not-accessible',
      message: 'The requested event is not accessible',
      data: { status: 403 },
    });
  });

  it('hides a draft from anonymous callers by slug too', async () => {
    await create({ title: 'Secret Slug Draft', status: 'draft' });

    const res = await api.get('/events/by-slug/secret-slug-draft');

    expect(res.status).toBe(403);
    expect(res.body.code).toBe('event-not-accessible');
  });

  it('shows a draft to editors (sample 109)', async () => {
    const e = await create({ title: 'Editor Draft', status: 'draft' });

    const res = await api.get(`/events/${e.id}`, { token: editor });

    expect(res.status).toBe(200);
    expect(res.body.status).toBe('draft');
  });

  it('shows a contributor’s pending event to its author and editors only', async () => {
    const e = await create({ title: 'Pending Mine', status: 'publish' }, contributor);

    expect((await api.get(`/events/${e.id}`, { token: contributor })).status).toBe(200);
    expect((await api.get(`/events/${e.id}`, { token: editor })).status).toBe(200);
    expect((await api.get(`/events/${e.id}`, { token: otherContributor })).status).toBe(403);
    expect((await api.get(`/events/${e.id}`, { token: subscriber })).status).toBe(403);
    expect((await api.get(`/events/${e.id}`)).status).toBe(403);
  });

  it('hides private events from anonymous callers', async () => {
    const e = await create({ title: 'Private Party', status: 'private' });

    expect((await api.get(`/events/${e.id}`)).status).toBe(403);
    expect((await api.get(`/events/${e.id}`, { token: editor })).status).toBe(200);
  });
});

describe('json_ld only on single GETs', () => {
  it('is absent from create, update, delete and list responses', async () => {
    const created = await api.post(
      '/events',
      { title: 'No LD Here', start_date: '2031-05-05 10:00', end_date: '2031-05-05 11:00' },
      { token: editor },
    );
    const updated = await api.patch(`/events/${created.body.id}`, { excerpt: 'x' }, { token: editor });
    const listed = await api.get('/events?start_date=2031-05-05&end_date=2031-05-05');
    const deleted = await api.del(`/events/${created.body.id}`, { token: editor });

    expect(created.body).not.toHaveProperty('json_ld');
    expect(updated.body).not.toHaveProperty('json_ld');
    expect(listed.body.events).toHaveLength(1);
    expect(listed.body.events[0]).not.toHaveProperty('json_ld');
    expect(deleted.body).not.toHaveProperty('json_ld');
  });
});

describe('updating an event', () => {
  const full = async (title: string) => {
    const cat = await term('categories', { name: `${title} Category` });
    const tag = await term('tags', { name: `${title} Tag` });
    return create({
      title,
      description: '<p>Keep</p>',
      excerpt: 'Keep excerpt',
      start_date: '2027-01-15 20:00:00',
      end_date: '2027-01-15 23:00:00',
      timezone: 'America/New_York',
      categories: [cat.id],
      tags: [tag.id],
      cost: '15',
      website: 'https://example.com/keep',
      featured: true,
      sticky: true,
      show_map: true,
      show_map_link: true,
      image: 'https://cdn.example.com/keep.png',
    });
  };

  it('changes only the fields sent: a title-only PATCH keeps everything else (unlike sample 175)', async () => {
    const e = await full('Partial Keep');

    const res = await api.patch(`/events/${e.id}`, { title: 'Partial Keep (updated)' }, { token: editor });

    expect(res.status).toBe(200);
    expect(stable(res.body)).toEqual({ ...stable(e), title: 'Partial Keep (updated)' });
    expect(stable((await api.get(`/events/${e.id}`)).body)).toMatchObject({
      ...stable(e),
      title: 'Partial Keep (updated)',
    });
  });

  it('treats POST and PUT as the same partial update', async () => {
    const e = await full('Verb Keep');

    const viaPost = await api.post(`/events/${e.id}`, { cost: '20' }, { token: editor });
    const viaPut = await api.put(`/events/${e.id}`, { featured: false }, { token: editor });

    expect(viaPost.status).toBe(200);
    expect(viaPut.body).toMatchObject({
      cost: '$20',
      featured: false,
      sticky: true,
      website: 'https://example.com/keep',
    });
  });

  it('moves the dates (sample 177) and keeps the zone', async () => {
    const e = await full('Move Dates');

    const res = await api.put(
      `/events/${e.id}`,
      { start_date: '2027-07-02 10:00:00', end_date: '2027-07-04 22:00:00' },
      { token: editor },
    );

    expect(res.body).toMatchObject({
      start_date: '2027-07-02 10:00:00',
      end_date: '2027-07-04 22:00:00',
      utc_start_date: '2027-07-02 14:00:00',
      timezone: 'America/New_York',
      timezone_abbr: 'EDT',
    });
  });

  it('keeps the end when only the start moves', async () => {
    const e = await full('Start Only');

    const res = await api.patch(`/events/${e.id}`, { start_date: '2027-01-15 19:00:00' }, { token: editor });

    expect(res.body).toMatchObject({ start_date: '2027-01-15 19:00:00', end_date: '2027-01-15 23:00:00' });
  });

  it('keeps the wall times and moves the UTC times when only the zone changes', async () => {
    const e = await full('Zone Only');

    const res = await api.patch(`/events/${e.id}`, { timezone: 'Europe/Berlin' }, { token: editor });

    expect(res.body).toMatchObject({
      start_date: '2027-01-15 20:00:00',
      utc_start_date: '2027-01-15 19:00:00',
      timezone: 'Europe/Berlin',
      timezone_abbr: 'CET',
    });
  });

  it('widens the kept dates when all_day is switched on', async () => {
    const e = await full('Becomes All Day');

    const res = await api.patch(`/events/${e.id}`, { all_day: true }, { token: editor });

    expect(res.body).toMatchObject({
      all_day: true,
      start_date: '2027-01-15 00:00:00',
      end_date: '2027-01-15 23:59:59',
    });
  });

  it('clears optional fields sent as null or ""', async () => {
    const e = await full('Clear Me');

    const res = await api.patch(
      `/events/${e.id}`,
      { description: null, excerpt: '', cost: null, image: null, timezone: null, website: null },
      { token: editor },
    );

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      description: '',
      excerpt: '',
      cost: '',
      cost_details: { values: [] },
      image: false,
      timezone: 'UTC',
      start_date: '2027-01-15 20:00:00',
      utc_start_date: '2027-01-15 20:00:00',
      website: e.url,
    });
  });

  it('clears the cost with "" too', async () => {
    const e = await full('Clear Cost');

    const res = await api.patch(`/events/${e.id}`, { cost: '' }, { token: editor });

    expect(res.body).toMatchObject({ cost: '', cost_details: { values: [] } });
  });

  it('replaces the whole set of categories and tags, and [] or "" empties it', async () => {
    const e = await full('Replace Terms');
    const other = await term('categories', { name: 'Replacement Category' });

    const replaced = await api.patch(`/events/${e.id}`, { categories: [other.id] }, { token: editor });
    const emptied = await api.patch(`/events/${e.id}`, { categories: [], tags: '' }, { token: editor });

    expect(replaced.body.categories.map((c: { id: number }) => c.id)).toEqual([other.id]);
    expect(replaced.body.tags).toEqual(e.tags);
    expect(emptied.body).toMatchObject({ categories: [], tags: [] });
  });

  it.each([
    ['title ""', { title: '' }, 'title'],
    ['title null', { title: null }, 'title'],
    ['start_date null', { start_date: null }, 'start_date'],
    ['an unparseable end_date (sample 182)', { end_date: 'tomorrow-ish' }, 'end_date'],
    ['an end before the kept start', { end_date: '2027-01-15 19:00:00' }, 'end_date'],
    ['a start after the kept end', { start_date: '2027-01-16 10:00:00' }, 'end_date'],
    ['an unknown time zone', { timezone: 'Nowhere/Land' }, 'timezone'],
    ['a non-boolean flag', { sticky: 'sometimes' }, 'sticky'],
    ['an unknown category', { categories: [999999] }, 'categories'],
    ['an image ID', { image: 42 }, 'image'],
  ])('refuses %s with a 400 naming it and changes nothing', async (label, body, param) => {
    const e = await full(`Refuse ${label}`);

    const res = await api.patch(`/events/${e.id}`, body, { token: editor });

    expect(res.status).toBe(400);
    expect(res.body.data.params).toHaveProperty(param);
    expect(stable((await api.get(`/events/${e.id}`, { token: editor })).body)).toMatchObject(stable(e));
  });

  it('renames the slug, and refuses a taken one with a 400 naming slug (issue 8)', async () => {
    await create({ title: 'Slug Target' });
    const e = await create({ title: 'Slug Mover' });

    const taken = await api.patch(`/events/${e.id}`, { slug: 'slug-target' }, { token: editor });
    const res = await api.patch(`/events/${e.id}`, { slug: 'slug-moved' }, { token: editor });

    expect(taken.status).toBe(400);
    expect(taken.body).toMatchObject({
      code: 'rest_invalid_param',
      data: { details: { slug: { code: 'rest_slug_taken' } } },
    });
    expect(res.body).toMatchObject({
      slug: 'slug-moved',
      url: 'http://calendar.test/event/slug-moved/',
    });
    expect((await api.get('/events/by-slug/slug-moved')).body.id).toBe(e.id);
    expect((await api.get('/events/by-slug/slug-mover')).status).toBe(404);
  });

  it('updates by slug (sample 183)', async () => {
    const e = await create({ title: 'Winter Market By Slug' });

    const res = await api.patch('/events/by-slug/winter-market-by-slug', { cost: '5' }, { token: editor });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: e.id,
      cost: '$5',
      cost_details: { values: ['5'] },
      title: 'Winter Market By Slug',
    });
  });

  it('answers 404 for an unknown ID or slug (sample 180)', async () => {
    const byId = await api.put('/events/999999', { title: 'x' }, { token: editor });
    const bySlug = await api.patch('/events/by-slug/nothing-here', { title: 'x' }, { token: editor });

    expect(byId.status).toBe(404);
    expect(byId.body.message).toBe('Event with ID 999999 does not exist.');
    expect(bySlug.status).toBe(404);
    expect(bySlug.body.message).toBe('Event with slug "nothing-here" does not exist.');
  });

  it('answers anonymous callers 401 before looking at the ID (sample 181)', async () => {
    const res = await api.put('/events/999999', { title: 'x' });

    expect(res.status).toBe(401);
  });

  it('hides an event from visitors once it is moved back to draft', async () => {
    const e = await create({ title: 'Unpublished Later' });

    await api.patch(`/events/${e.id}`, { status: 'draft' }, { token: editor });

    expect((await api.get(`/events/${e.id}`)).status).toBe(403);
  });
});

describe('who may update', () => {
  it('lets a contributor edit their own draft', async () => {
    const e = await create({ title: 'Own Draft' }, contributor);

    const res = await api.patch(`/events/${e.id}`, { title: 'Own Draft Edited' }, { token: contributor });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'Own Draft Edited', status: 'draft' });
  });

  it('keeps a contributor’s publish pending on update', async () => {
    const e = await create({ title: 'Wants Out' }, contributor);

    const res = await api.patch(`/events/${e.id}`, { status: 'publish' }, { token: contributor });

    expect(res.body.status).toBe('pending');
  });

  it('refuses a contributor’s edit of their own event once it is published (403)', async () => {
    const e = await create({ title: 'Published For Contributor' }, contributor);
    await api.patch(`/events/${e.id}`, { status: 'publish' }, { token: editor });

    const res = await api.patch(`/events/${e.id}`, { title: 'Sneaky' }, { token: contributor });

    expect(res.status).toBe(403);
    expect(res.body.code).toBe('rest_forbidden');
    expect((await api.get(`/events/${e.id}`)).body.title).toBe('Published For Contributor');
  });

  it('refuses a contributor’s edit of someone else’s draft (403)', async () => {
    const e = await create({ title: 'Not Yours' }, otherContributor);

    expect((await api.patch(`/events/${e.id}`, { title: 'Mine' }, { token: contributor })).status).toBe(403);
  });

  it('lets an author edit their own published event but not someone else’s', async () => {
    const own = await create({ title: 'Author Own' }, author);
    const others = await create({ title: 'Author Other' }, otherAuthor);

    const ownRes = await api.patch(`/events/${own.id}`, { title: 'Author Own Edited' }, { token: author });
    const otherRes = await api.patch(`/events/${others.id}`, { title: 'Taken Over' }, { token: author });

    expect(ownRes.status).toBe(200);
    expect(ownRes.body.status).toBe('publish');
    expect(otherRes.status).toBe(403);
  });

  it('lets editors edit everyone’s events', async () => {
    const e = await create({ title: 'Edited By Editor' }, author);

    const res = await api.patch(`/events/${e.id}`, { title: 'Editor Was Here' }, { token: editor });

    expect(res.status).toBe(200);
    expect(res.body.author).toBe('author-1');
  });

  it('answers subscribers 403', async () => {
    const e = await create({ title: 'Subscriber Target' });

    expect((await api.patch(`/events/${e.id}`, { title: 'x' }, { token: subscriber })).status).toBe(403);
  });

  it('validates before it authorizes: a bad body on someone else’s event is a 400 (decisions §3)', async () => {
    const e = await create({ title: 'Validate First' });

    const res = await api.patch(`/events/${e.id}`, { end_date: 'garbage' }, { token: contributor });

    expect(res.status).toBe(400);
    expect(res.body.data.params).toHaveProperty('end_date');
  });
});

describe('DELETE /events/{id}', () => {
  it('moves to the trash and answers 200 with the trashed event (sample 185)', async () => {
    const e = await create({ title: 'Trash Me' });

    const res = await api.del(`/events/${e.id}`, { token: editor });

    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(EVENT_KEYS);
    expect(res.body).toMatchObject({ id: e.id, status: 'trash', slug: 'trash-me', title: 'Trash Me' });
  });

  it('answers 410 event-is-in-trash the second time (sample 186)', async () => {
    const e = await create({ title: 'Trash Twice' });
    await api.del(`/events/${e.id}`, { token: editor });

    const res = await api.del(`/events/${e.id}`, { token: editor });

    expect(res.status).toBe(410);
    expect(res.body).toEqual({
      code: 'event-is-in-trash',
      message: 'The event is already trashed',
      data: { status: 410 },
    });
  });

  it('hides a trashed event from visitors with 403 event-no-longer-available, not from editors', async () => {
    const e = await create({ title: 'Gone Event' });
    await api.del(`/events/${e.id}`, { token: editor });

    const anonymous = await api.get(`/events/${e.id}`);
    const asEditor = await api.get(`/events/${e.id}`, { token: editor });

    expect(anonymous.status).toBe(403);
    expect(anonymous.body).toEqual({
      code: 'event-no-longer-available',
      message: 'This event is no longer available',
      data: { status: 403 },
    });
    expect(asEditor.status).toBe(200);
    expect(asEditor.body.status).toBe('trash');
  });

  it('keeps a trashed event’s slug taken, and restoring keeps it', async () => {
    const e = await create({ title: 'Keeps Its Slug' });
    await api.del(`/events/${e.id}`, { token: editor });

    const other = await create({ title: 'Keeps Its Slug' });
    const restored = await api.patch(`/events/${e.id}`, { status: 'publish' }, { token: editor });

    expect(other.slug).toBe('keeps-its-slug-2');
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ status: 'publish', slug: 'keeps-its-slug' });
    expect((await api.get(`/events/${e.id}`)).status).toBe(200);
  });

  it('deletes permanently with force=true (editors), freeing the slug', async () => {
    const e = await create({ title: 'Forced Out' });

    const res = await api.del(`/events/${e.id}?force=true`, { token: editor });

    expect(res.status).toBe(200);
    expect(res.body.id).toBe(e.id);
    expect((await api.get(`/events/${e.id}`, { token: editor })).status).toBe(404);
    expect((await api.del(`/events/${e.id}`, { token: editor })).status).toBe(404);
    expect((await create({ title: 'Forced Out' })).slug).toBe('forced-out');
  });

  it('deletes a trashed event permanently with force=true', async () => {
    const e = await create({ title: 'Trash Then Force' });
    await api.del(`/events/${e.id}`, { token: editor });

    const res = await api.del(`/events/${e.id}?force=true`, { token: editor });

    expect(res.status).toBe(200);
    expect((await api.get(`/events/${e.id}`, { token: editor })).status).toBe(404);
  });

  it('refuses force to authors, even on their own events (403), leaving the event', async () => {
    const e = await create({ title: 'Author Force' }, author);

    const res = await api.del(`/events/${e.id}?force=true`, { token: author });

    expect(res.status).toBe(403);
    expect((await api.get(`/events/${e.id}`)).body.status).toBe('publish');
  });

  it('rejects a non-boolean force', async () => {
    const e = await create({ title: 'Force Maybe' });

    const res = await api.del(`/events/${e.id}?force=maybe`, { token: editor });

    expect(res.status).toBe(400);
    expect(res.body.data.params).toHaveProperty('force');
  });

  it('lets a contributor trash their own draft but not others’ events', async () => {
    const own = await create({ title: 'Contributor Trash' }, contributor);
    const others = await create({ title: 'Editor Owned' });

    expect((await api.del(`/events/${own.id}`, { token: contributor })).status).toBe(200);
    expect((await api.del(`/events/${others.id}`, { token: contributor })).status).toBe(403);
  });

  it('lets an author trash their own event but not others’', async () => {
    const own = await create({ title: 'Author Trash' }, author);
    const others = await create({ title: 'Other Author Trash' }, otherAuthor);

    expect((await api.del(`/events/${own.id}`, { token: author })).status).toBe(200);
    expect((await api.del(`/events/${others.id}`, { token: author })).status).toBe(403);
  });

  it('answers 401 to anonymous callers and 403 to subscribers (sample 184)', async () => {
    const e = await create({ title: 'Protected Event' });

    expect((await api.del(`/events/${e.id}`)).status).toBe(401);
    expect((await api.del(`/events/${e.id}`, { token: subscriber })).status).toBe(403);
    expect((await api.get(`/events/${e.id}`)).body.status).toBe('publish');
  });

  it('answers 404 for an unknown ID or slug (sample 189)', async () => {
    const byId = await api.del('/events/999999', { token: editor });
    const bySlug = await api.del('/events/by-slug/never-was', { token: editor });

    expect(byId.status).toBe(404);
    expect(byId.body.code).toBe('rest-event-not-found');
    expect(bySlug.status).toBe(404);
  });

  it('trashes by slug (sample 190)', async () => {
    const e = await create({ title: 'Sticky Event', sticky: true });

    const res = await api.del(`/events/by-slug/${e.slug}`, { token: editor });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: e.id, status: 'trash', sticky: true });
  });
});

describe('term counts follow their events', () => {
  const category = (name: string) => term('categories', { name });

  it('counts a published event for everyone', async () => {
    const c = await category('Count Published');

    await create({ title: 'Counted', categories: [c.id] });

    expect(await countOf('categories', c.id)).toBe(1);
    expect(await countOf('categories', c.id, editor)).toBe(1);
  });

  it('does not count drafts or pending events, for anyone', async () => {
    const c = await category('Count Drafts');

    await create({ title: 'Draft Counted', status: 'draft', categories: [c.id] });
    await create({ title: 'Pending Counted', status: 'pending', categories: [c.id] });

    expect(await countOf('categories', c.id)).toBe(0);
    expect(await countOf('categories', c.id, editor)).toBe(0);
  });

  it('counts a private event for editors only', async () => {
    const c = await category('Count Private');

    await create({ title: 'Private Counted', status: 'private', categories: [c.id] });

    expect(await countOf('categories', c.id)).toBe(0);
    expect(await countOf('categories', c.id, editor)).toBe(1);
  });

  it('follows status changes: publish, back to draft, publish again', async () => {
    const c = await category('Count Status');
    const e = await create({ title: 'Status Flip', status: 'draft', categories: [c.id] });

    await api.patch(`/events/${e.id}`, { status: 'publish' }, { token: editor });
    const published = await countOf('categories', c.id);
    await api.patch(`/events/${e.id}`, { status: 'draft' }, { token: editor });
    const drafted = await countOf('categories', c.id);

    expect([published, drafted]).toEqual([1, 0]);
  });

  it('drops on trash, returns on restore and drops on a permanent delete', async () => {
    const c = await category('Count Trash');
    const e = await create({ title: 'Trash Counted', categories: [c.id] });

    await api.del(`/events/${e.id}`, { token: editor });
    const trashed = await countOf('categories', c.id, editor);
    await api.patch(`/events/${e.id}`, { status: 'publish' }, { token: editor });
    const restored = await countOf('categories', c.id, editor);
    await api.del(`/events/${e.id}?force=true`, { token: editor });
    const deleted = await countOf('categories', c.id, editor);

    expect([trashed, restored, deleted]).toEqual([0, 1, 0]);
  });

  it('does not go below zero when a trashed event is deleted for good', async () => {
    const c = await category('Count Never Negative');
    const e = await create({ title: 'Trash Then Delete Counted', categories: [c.id] });
    await api.del(`/events/${e.id}`, { token: editor });

    await api.del(`/events/${e.id}?force=true`, { token: editor });

    expect(await countOf('categories', c.id, editor)).toBe(0);
  });

  it('moves with a change of links', async () => {
    const from = await category('Count From');
    const to = await category('Count To');
    const e = await create({ title: 'Link Mover', categories: [from.id] });

    await api.patch(`/events/${e.id}`, { categories: [to.id] }, { token: editor });

    expect(await countOf('categories', from.id)).toBe(0);
    expect(await countOf('categories', to.id)).toBe(1);
  });

  it('still counts events hidden from listings (decisions §8)', async () => {
    const c = await category('Count Hidden');

    await create({ title: 'Hidden Counted', hide_from_listings: true, categories: [c.id] });

    expect(await countOf('categories', c.id)).toBe(1);
  });

  it('counts tags the same way', async () => {
    const t = await term('tags', { name: 'Count Tag' });
    const e = await create({ title: 'Tag Counted', tags: [t.id] });
    const before = await countOf('tags', t.id);

    await api.del(`/events/${e.id}`, { token: editor });

    expect([before, await countOf('tags', t.id)]).toEqual([1, 0]);
  });

  it('shows the caller’s count in the embedded term too', async () => {
    const c = await category('Count Embedded');
    await create({ title: 'Embedded Private', status: 'private', categories: [c.id] });
    const pub = await create({ title: 'Embedded Public', categories: [c.id] });

    const asVisitor = await api.get(`/events/${pub.id}`);
    const asEditor = await api.get(`/events/${pub.id}`, { token: editor });

    expect(asVisitor.body.categories[0].count).toBe(1);
    expect(asEditor.body.categories[0].count).toBe(2);
  });

  it('shows an empty category in /categories only once an event uses it (hide_empty default)', async () => {
    const c = await category('Hide Empty Until Used');
    const listed = async () =>
      (await api.get('/categories?per_page=50&search=Hide Empty Until Used')).body.categories.length;
    const before = await listed();

    await create({ title: 'Uses It', categories: [c.id] });

    expect([before, await listed()]).toEqual([0, 1]);
  });

  it('hides a category whose only event is private from visitors, not from editors (hide_empty)', async () => {
    const c = await category('Only Private Events');

    await create({ title: 'Private Only', status: 'private', categories: [c.id] });

    expect((await api.get('/categories?per_page=50&search=Only Private Events')).body.total).toBe(0);
    expect(
      (await api.get('/categories?per_page=50&search=Only Private Events', { token: editor })).body.total,
    ).toBe(1);
  });

  it('lists the terms of an event with post / event, following link changes', async () => {
    const a = await category('Event Filter A');
    const b = await category('Event Filter B');
    const e = await create({ title: 'Term Filter Event', categories: [a.id, b.id] });

    const both = await api.get(`/categories?event=${e.id}&hide_empty=false`);
    await api.patch(`/events/${e.id}`, { categories: [b.id] }, { token: editor });
    const one = await api.get(`/categories?post=${e.id}&hide_empty=false`);

    expect(both.body.categories.map((c: { id: number }) => c.id).sort()).toEqual([a.id, b.id].sort());
    expect(one.body.categories.map((c: { id: number }) => c.id)).toEqual([b.id]);
  });

  it('refuses a draft event as the term filter for visitors, not for editors', async () => {
    const e = await create({ title: 'Draft Filter Event', status: 'draft' });

    expect((await api.get(`/tags?event=${e.id}`)).status).toBe(400);
    expect((await api.get(`/tags?event=${e.id}`, { token: editor })).status).toBe(200);
  });

  it('unlinks a deleted category from its events', async () => {
    const c = await category('Deleted Category');
    const keep = await category('Kept Category');
    const e = await create({ title: 'Loses A Category', categories: [c.id, keep.id] });

    const res = await api.del(`/categories/${c.id}`, { token: editor });

    expect(res.status).toBe(200);
    expect((await api.get(`/events/${e.id}`)).body.categories.map((x: { id: number }) => x.id)).toEqual([
      keep.id,
    ]);
    expect((await api.patch(`/events/${e.id}`, { title: 'Still Editable' }, { token: editor })).status).toBe(
      200,
    );
  });

  it('unlinks a deleted tag from its events', async () => {
    const t = await term('tags', { name: 'Deleted Tag' });
    const e = await create({ title: 'Loses A Tag', tags: [t.id] });

    await api.del(`/tags/${t.id}`, { token: editor });

    expect((await api.get(`/events/${e.id}`)).body.tags).toEqual([]);
  });
});
