import { beforeAll, describe, expect, it } from 'vitest';
import type { Reply } from '../support/stack';
import { useStack } from '../support/use-stack';

/**
 * GET /categories and GET /tags (reference §8.1, decisions §5): filters, order and paging.
 *
 * The fixture is built once and never changed by the tests that read it, so whole lists can be
 * compared. The first block runs before any event carries a term; the second adds events.
 */
const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

const cat: Record<'music' | 'jazz' | 'workshops' | 'empty' | 'members', Term> = {} as never;
const tag: Record<'outdoor' | 'free' | 'family' | 'unused', Term> = {} as never;
const ev: Record<'concert' | 'jazzNight' | 'pottery' | 'woodwork' | 'draft' | 'private', { id: number }> =
  {} as never;

interface Term {
  id: number;
  name: string;
  slug: string;
  count: number;
  parent?: number;
  [k: string]: unknown;
}

beforeAll(async () => {
  const term = async (collection: string, body: Record<string, unknown>): Promise<Term> => {
    const res = await api.post(`/${collection}`, body, { token: editor });
    expect(res.status).toBe(201);
    return res.body;
  };
  cat.music = await term('categories', { name: 'Music', description: 'All things music' });
  cat.jazz = await term('categories', { name: 'Jazz', parent: cat.music.id });
  cat.workshops = await term('categories', { name: 'Workshops', description: 'Hands-on sessions' });
  cat.empty = await term('categories', { name: 'Empty Category' });
  // A slug unlike the name, to tell the name from the slug in search and orderby.
  cat.members = await term('categories', { name: 'Members', slug: 'vip-club' });
  tag.outdoor = await term('tags', { name: 'Outdoor' });
  tag.free = await term('tags', { name: 'Free', description: 'No ticket needed' });
  tag.family = await term('tags', { name: 'Family' });
  tag.unused = await term('tags', { name: 'Unused Tag' });
});

const names = (res: Reply, key = 'categories'): string[] => res.body[key].map((t: Term) => t.name);
const ALL_CATEGORIES = ['Empty Category', 'Jazz', 'Members', 'Music', 'Workshops'];
const ALL_TAGS = ['Family', 'Free', 'Outdoor', 'Unused Tag'];

describe('before any event carries a term', () => {
  it.each(['categories', 'tags'])(
    'GET /%s answers 200 with an empty first page and zero totals',
    async (collection) => {
      const res = await api.get(`/${collection}`);

      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        rest_url: `${api.base}/${collection}`,
        total: 0,
        total_pages: 0,
        [collection]: [],
      });
      expect(Object.keys(res.body)).toEqual(['rest_url', 'total', 'total_pages', collection]);
      expect(res.headers.get('x-cal-total')).toBe('0');
      expect(res.headers.get('x-cal-totalpages')).toBe('0');
      expect(res.headers.get('link')).toBeNull();
    },
  );

  it('lists every category, empty or not, with hide_empty=false', async () => {
    const res = await api.get('/categories?hide_empty=false');

    expect(res.status).toBe(200);
    expect(names(res)).toEqual(ALL_CATEGORIES);
    expect(res.body.total).toBe(5);
    expect(res.body.categories.every((t: Term) => t.count === 0)).toBe(true);
  });

  it('lists every tag with hide_empty=0', async () => {
    const res = await api.get('/tags?hide_empty=0');

    expect(res.status).toBe(200);
    expect(names(res, 'tags')).toEqual(ALL_TAGS);
    expect(res.headers.get('x-cal-total')).toBe('4');
  });
});

describe('with events', () => {
  beforeAll(async () => {
    const event = async (title: string, body: Record<string, unknown>) => {
      const res = await api.post(
        '/events',
        { title, start_date: '2030-05-01 19:00:00', end_date: '2030-05-01 21:00:00', ...body },
        { token: editor },
      );
      expect(res.status).toBe(201);
      return res.body as { id: number };
    };
    // Published counts: Music 3, Workshops 2, Jazz 1; Family 3, Outdoor 1, Free 1.
    ev.concert = await event('Concert', { categories: [cat.music.id], tags: ['outdoor', 'family'] });
    ev.jazzNight = await event('Jazz Night', { categories: ['music', 'jazz'], tags: ['family'] });
    ev.pottery = await event('Pottery', { categories: ['music', 'workshops'], tags: ['family', 'free'] });
    ev.woodwork = await event('Woodwork', { categories: ['workshops'] });
    // Drafts count for nobody; private events count for editors only.
    ev.draft = await event('Draft Rehearsal', {
      status: 'draft',
      categories: ['empty-category'],
      tags: ['unused-tag'],
    });
    ev.private = await event('Members Evening', { status: 'private', categories: ['vip-club'] });
  });

  describe('hide_empty and counts', () => {
    it('hides the categories no visible event carries by default', async () => {
      const res = await api.get('/categories');

      expect(res.status).toBe(200);
      expect(names(res)).toEqual(['Jazz', 'Music', 'Workshops']);
      expect(res.body.categories.map((t: Term) => t.count)).toEqual([1, 3, 2]);
      expect(res.body.total).toBe(3);
      expect(res.headers.get('x-cal-total')).toBe('3');
      expect(res.headers.get('x-cal-totalpages')).toBe('1');
    });

    it('lists categories in the reference shape (sample 136)', async () => {
      const res = await api.get('/categories?include=jazz');

      expect(res.body.categories).toEqual([
        {
          id: cat.jazz.id,
          count: 1,
          description: '',
          name: 'Jazz',
          slug: 'jazz',
          taxonomy: 'tribe_events_cat',
          parent: cat.music.id,
          meta: [],
          url: 'http://calendar.test/events/category/music/jazz/',
          urls: {
            self: `${api.base}/categories/${cat.jazz.id}`,
            collection: `${api.base}/categories`,
            up: `${api.base}/categories/${cat.music.id}`,
          },
        },
      ]);
    });

    it('lists tags in the reference shape, without a parent (sample 151)', async () => {
      const res = await api.get('/tags');

      expect(names(res, 'tags')).toEqual(['Family', 'Free', 'Outdoor']);
      expect(res.body.tags[1]).toEqual({
        id: tag.free.id,
        count: 1,
        description: 'No ticket needed',
        name: 'Free',
        slug: 'free',
        taxonomy: 'post_tag',
        meta: [],
        url: 'http://calendar.test/tag/free/',
        urls: { self: `${api.base}/tags/${tag.free.id}`, collection: `${api.base}/tags` },
      });
    });

    it('shows empty categories with count 0 when hide_empty=false', async () => {
      const res = await api.get('/categories?hide_empty=false');

      expect(names(res)).toEqual(ALL_CATEGORIES);
      expect(res.body.categories.map((t: Term) => t.count)).toEqual([0, 1, 0, 3, 2]);
    });

    it('shows empty tags when hide_empty=0', async () => {
      const res = await api.get('/tags?hide_empty=0');

      expect(names(res, 'tags')).toEqual(ALL_TAGS);
      expect(res.body.tags.find((t: Term) => t.name === 'Unused Tag').count).toBe(0);
    });

    it('counts private events for editors, so their terms show up for them only', async () => {
      const res = await api.get('/categories', { token: editor });

      expect(names(res)).toEqual(['Jazz', 'Members', 'Music', 'Workshops']);
      expect(res.body.categories[1].count).toBe(1);
    });

    it('rejects a hide_empty that is not a boolean', async () => {
      const res = await api.get('/categories?hide_empty=maybe');

      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 'rest_invalid_param',
        data: { status: 400, params: { hide_empty: expect.any(String) } },
      });
    });
  });

  describe('search', () => {
    it('matches names containing the string', async () => {
      const res = await api.get('/categories?search=mus');

      expect(names(res)).toEqual(['Music']);
      expect(res.body.total).toBe(1);
    });

    it('ignores case', async () => {
      const res = await api.get('/categories?search=MUS');

      expect(names(res)).toEqual(['Music']);
    });

    it('matches slugs containing the string', async () => {
      const res = await api.get('/categories?search=vip&hide_empty=false');

      expect(names(res)).toEqual(['Members']);
    });

    it('answers 200 with an empty list when nothing matches', async () => {
      const res = await api.get('/tags?search=zzz');

      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ total: 0, total_pages: 0, tags: [] });
    });

    it('rejects an empty search string', async () => {
      const res = await api.get('/categories?search=');

      expect(res.status).toBe(400);
      expect(res.body.data.params).toHaveProperty('search');
    });
  });

  describe('include and exclude', () => {
    it('includes by ID, as CSV', async () => {
      const res = await api.get(`/categories?include=${cat.music.id},${cat.workshops.id}`);

      expect(names(res)).toEqual(['Music', 'Workshops']);
    });

    it('includes by slug', async () => {
      const res = await api.get('/categories?include=jazz,workshops');

      expect(names(res)).toEqual(['Jazz', 'Workshops']);
    });

    it('includes with repeated include[] keys', async () => {
      const res = await api.get(`/categories?include[]=music&include[]=${cat.jazz.id}`);

      expect(names(res)).toEqual(['Jazz', 'Music']);
    });

    it('includes with repeated plain keys', async () => {
      const res = await api.get('/tags?include=free&include=outdoor');

      expect(names(res, 'tags')).toEqual(['Free', 'Outdoor']);
    });

    it('still hides empty terms among the included ones by default', async () => {
      const res = await api.get('/categories?include=music,empty-category');

      expect(names(res)).toEqual(['Music']);
    });

    it('excludes by ID (sample 145)', async () => {
      const res = await api.get(`/categories?exclude=${cat.music.id}`);

      expect(names(res)).toEqual(['Jazz', 'Workshops']);
    });

    it('excludes by slug, as CSV', async () => {
      const res = await api.get('/tags?exclude=family,free');

      expect(names(res, 'tags')).toEqual(['Outdoor']);
    });

    it('excludes with repeated exclude[] keys', async () => {
      const res = await api.get(`/categories?exclude[]=${cat.jazz.id}&exclude[]=workshops`);

      expect(names(res)).toEqual(['Music']);
    });

    it.each([
      ['include', 'categories', () => '999999'],
      ['include', 'categories', () => 'music,no-such-slug'],
      ['exclude', 'categories', () => 'no-such-slug'],
      ['include', 'tags', () => 'nope'],
      ['exclude', 'tags', () => '999999'],
      ['include', 'categories', () => String(tag.family.id)],
      ['include', 'tags', () => 'music'],
    ])('answers 400 naming %s for an unknown entry (%s: %s)', async (param, collection, value) => {
      const res = await api.get(`/${collection}?${param}=${value()}`);

      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 'rest_invalid_param',
        message: `Invalid parameter(s): ${param}`,
        data: {
          status: 400,
          params: { [param]: expect.any(String) },
          details: { [param]: expect.objectContaining({ code: expect.any(String) }) },
        },
      });
    });
  });

  describe('order and orderby', () => {
    it('orders by name ascending by default', async () => {
      const res = await api.get('/categories?hide_empty=false');

      expect(names(res)).toEqual(ALL_CATEGORIES);
    });

    it('orders by name descending with order=desc (sample 138)', async () => {
      const res = await api.get('/categories?hide_empty=0&orderby=name&order=desc');

      expect(names(res)).toEqual([...ALL_CATEGORIES].reverse());
    });

    it('orders by ID', async () => {
      const res = await api.get('/categories?hide_empty=false&orderby=id');

      expect(res.body.categories.map((t: Term) => t.id)).toEqual(
        [cat.music, cat.jazz, cat.workshops, cat.empty, cat.members].map((t) => t.id),
      );
    });

    it('orders by ID descending', async () => {
      const res = await api.get('/tags?hide_empty=false&orderby=id&order=desc');

      expect(res.body.tags.map((t: Term) => t.id)).toEqual(
        [tag.unused, tag.family, tag.free, tag.outdoor].map((t) => t.id),
      );
    });

    it('orders by slug', async () => {
      const res = await api.get('/categories?hide_empty=false&orderby=slug');

      expect(res.body.categories.map((t: Term) => t.slug)).toEqual([
        'empty-category',
        'jazz',
        'music',
        'vip-club',
        'workshops',
      ]);
    });

    it('orders by count (sample 139)', async () => {
      const asc = await api.get('/categories?orderby=count');
      const desc = await api.get('/categories?orderby=count&order=desc');

      expect(names(asc)).toEqual(['Jazz', 'Workshops', 'Music']);
      expect(names(desc)).toEqual(['Music', 'Workshops', 'Jazz']);
    });

    it.each([
      ['order', 'sideways'],
      ['orderby', 'colour'],
    ])('rejects an unknown %s', async (param, value) => {
      const res = await api.get(`/categories?${param}=${value}`);

      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 'rest_invalid_param',
        data: { params: { [param]: expect.any(String) } },
      });
    });
  });

  describe('parent (categories)', () => {
    it('lists the children of a category (sample 140)', async () => {
      const res = await api.get(`/categories?parent=${cat.music.id}`);

      expect(names(res)).toEqual(['Jazz']);
    });

    it('lists top-level categories with parent=0', async () => {
      const res = await api.get('/categories?parent=0&hide_empty=false');

      expect(names(res)).toEqual(['Empty Category', 'Members', 'Music', 'Workshops']);
    });

    it('answers 200 with an empty list for a category without children', async () => {
      const res = await api.get(`/categories?parent=${cat.workshops.id}`);

      expect(res.status).toBe(200);
      expect(res.body.categories).toEqual([]);
    });

    it.each(['999999', 'foo', '-1', ''])('answers 400 naming parent for parent=%j', async (value) => {
      const res = await api.get(`/categories?parent=${value}`);

      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 'rest_invalid_param',
        data: { params: { parent: expect.any(String) } },
      });
    });

    it('answers 400 for the ID of a tag as parent', async () => {
      const res = await api.get(`/categories?parent=${tag.family.id}`);

      expect(res.status).toBe(400);
      expect(res.body.data.params).toHaveProperty('parent');
    });
  });

  describe('slug', () => {
    it('lists the term with that slug (sample 143)', async () => {
      const res = await api.get('/categories?slug=jazz');

      expect(names(res)).toEqual(['Jazz']);
    });

    it('answers 200 with an empty list when no term has the slug', async () => {
      const res = await api.get('/tags?slug=no-such-tag');

      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ total: 0, total_pages: 0, tags: [] });
    });
  });

  describe('post and event', () => {
    it('lists the categories of an event with post (sample 141)', async () => {
      const res = await api.get(`/categories?post=${ev.jazzNight.id}`);

      expect(names(res)).toEqual(['Jazz', 'Music']);
    });

    it('lists the tags of an event with event (sample 153)', async () => {
      const res = await api.get(`/tags?event=${ev.concert.id}`);

      expect(names(res, 'tags')).toEqual(['Family', 'Outdoor']);
    });

    it('lets event win over post', async () => {
      const res = await api.get(`/categories?post=${ev.jazzNight.id}&event=${ev.woodwork.id}`);

      expect(names(res)).toEqual(['Workshops']);
    });

    it.each([
      ['categories', 'post', '999999'],
      ['categories', 'event', '999999'],
      ['tags', 'post', '999999'],
      ['categories', 'post', 'foo'],
      ['tags', 'event', ''],
      ['categories', 'event', '0'],
    ])('answers 400 on /%s naming %s=%j', async (collection, param, value) => {
      const res = await api.get(`/${collection}?${param}=${value}`);

      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 'rest_invalid_param',
        message: `Invalid parameter(s): ${param}`,
        data: { status: 400, params: { [param]: expect.any(String) } },
      });
    });

    it('answers 400 for the ID of a venue given as the event', async () => {
      const venue = await api.post('/venues', { venue: 'Not An Event Hall' }, { token: editor });

      const res = await api.get(`/categories?post=${venue.body.id}`);

      expect(res.status).toBe(400);
      expect(res.body.data.params).toHaveProperty('post');
    });

    it('treats an event the caller may not see as unknown', async () => {
      const res = await api.get(`/categories?post=${ev.draft.id}`);

      expect(res.status).toBe(400);
      expect(res.body.data.params).toHaveProperty('post');
    });

    it('lets an editor filter by a draft event', async () => {
      const res = await api.get(`/tags?post=${ev.draft.id}&hide_empty=false`, { token: editor });

      expect(res.status).toBe(200);
      expect(names(res, 'tags')).toEqual(['Unused Tag']);
    });
  });

  describe('paging', () => {
    // Five categories with hide_empty=false: pages of two are [Empty Category, Jazz], [Members, Music], [Workshops].
    const listUrl = (page?: number) =>
      `${api.base}/categories?hide_empty=false&per_page=2${page && page > 1 ? `&page=${page}` : ''}`;

    it('answers the first page with next_rest_url only, in the reference key order', async () => {
      const res = await api.get('/categories?hide_empty=false&per_page=2');

      expect(names(res)).toEqual(['Empty Category', 'Jazz']);
      expect(Object.keys(res.body)).toEqual([
        'rest_url',
        'total',
        'total_pages',
        'categories',
        'next_rest_url',
      ]);
      expect(res.body).toMatchObject({ total: 5, total_pages: 3, next_rest_url: listUrl(2) });
      expect(res.headers.get('x-cal-total')).toBe('5');
      expect(res.headers.get('x-cal-totalpages')).toBe('3');
      expect(res.headers.get('link')).toBe(`<${listUrl(2)}>; rel="next"`);
    });

    it('answers a middle page with both links (sample 146)', async () => {
      const res = await api.get('/categories?hide_empty=false&per_page=2&page=2');

      expect(names(res)).toEqual(['Members', 'Music']);
      expect(Object.keys(res.body)).toEqual([
        'rest_url',
        'total',
        'total_pages',
        'categories',
        'next_rest_url',
        'previous_rest_url',
      ]);
      expect(res.body.next_rest_url).toBe(listUrl(3));
      expect(res.body.previous_rest_url).toBe(listUrl(1));
      expect(res.headers.get('link')).toBe(`<${listUrl(3)}>; rel="next", <${listUrl(1)}>; rel="prev"`);
    });

    it('answers the last page with previous_rest_url only', async () => {
      const res = await api.get('/categories?hide_empty=false&per_page=2&page=3');

      expect(names(res)).toEqual(['Workshops']);
      expect(res.body).not.toHaveProperty('next_rest_url');
      expect(res.body.previous_rest_url).toBe(listUrl(2));
      expect(res.headers.get('link')).toBe(`<${listUrl(2)}>; rel="prev"`);
    });

    it('builds rest_url on the collection path of the API root used', async () => {
      const res = await api.get('/categories?hide_empty=false&per_page=2&page=2');

      expect(new URL(res.body.rest_url).origin + new URL(res.body.rest_url).pathname).toBe(
        `${api.base}/categories`,
      );
    });

    it('keeps every other query parameter in next and previous links', async () => {
      const res = await api.get(
        '/categories?hide_empty=false&orderby=slug&order=desc&search=s&per_page=1&page=2',
      );

      for (const link of [res.body.next_rest_url, res.body.previous_rest_url]) {
        const params = new URL(link).searchParams;
        expect(params.get('hide_empty')).toBe('false');
        expect(params.get('orderby')).toBe('slug');
        expect(params.get('order')).toBe('desc');
        expect(params.get('search')).toBe('s');
        expect(params.get('per_page')).toBe('1');
      }
      expect(new URL(res.body.next_rest_url).searchParams.get('page')).toBe('3');
      expect(new URL(res.body.previous_rest_url).searchParams.has('page')).toBe(false);
    });

    it('walks every page by following next_rest_url', async () => {
      const seen: string[] = [];
      let url: string | undefined =
        `${api.base}/categories?hide_empty=false&orderby=slug&order=desc&per_page=2`;

      while (url) {
        const res = await fetch(url);
        const body = (await res.json()) as { categories: Term[]; next_rest_url?: string };
        expect(res.status).toBe(200);
        seen.push(...body.categories.map((t: Term) => t.slug));
        url = body.next_rest_url;
      }

      expect(seen).toEqual(['workshops', 'vip-club', 'music', 'jazz', 'empty-category']);
    });

    it('answers a page past the end with 200 and an empty list (sample 147)', async () => {
      const res = await api.get('/categories?hide_empty=false&per_page=2&page=9');

      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ total: 5, total_pages: 3, categories: [] });
      expect(res.body).not.toHaveProperty('next_rest_url');
      expect(res.headers.get('x-cal-total')).toBe('5');
    });

    it('links the page just past the end back to the last page', async () => {
      const res = await api.get('/categories?hide_empty=false&per_page=2&page=4');

      expect(res.body.categories).toEqual([]);
      expect(res.body.previous_rest_url).toBe(listUrl(3));
    });

    it('pages ten terms at a time by default', async () => {
      const res = await api.get('/categories?hide_empty=false');

      expect(res.body.categories).toHaveLength(5);
      expect(res.body.total_pages).toBe(1);
      expect(res.body).not.toHaveProperty('next_rest_url');
      expect(res.body).not.toHaveProperty('previous_rest_url');
    });

    it.each([
      ['page', '0'],
      ['page', '-1'],
      ['page', 'abc'],
      ['page', '1.5'],
      ['per_page', '0'],
      ['per_page', '-1'],
      ['per_page', 'abc'],
      ['per_page', ''],
    ])('answers 400 rest_invalid_param naming %s=%j', async (param, value) => {
      const res = await api.get(`/tags?${param}=${value}`);

      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 'rest_invalid_param',
        message: `Invalid parameter(s): ${param}`,
        data: { status: 400, params: { [param]: expect.any(String) } },
      });
    });
  });
});

// Last: it adds fifty-one tags, which the whole-list expectations above do not know about.
describe('per_page above the maximum', () => {
  beforeAll(async () => {
    const created = await Promise.all(
      Array.from({ length: 51 }, (_, i) =>
        api.post('/tags', { name: `Bulk ${String(i + 1).padStart(2, '0')}` }, { token: editor }),
      ),
    );
    expect(created.map((r) => r.status)).toEqual(created.map(() => 201));
  });

  it('is capped silently at 50', async () => {
    const res = await api.get('/tags?hide_empty=false&search=bulk&per_page=500');

    expect(res.status).toBe(200);
    expect(res.body.tags).toHaveLength(50);
    expect(res.body).toMatchObject({ total: 51, total_pages: 2 });
    expect(res.headers.get('x-cal-totalpages')).toBe('2');
  });

  it('keeps the cap on the next page', async () => {
    const res = await api.get('/tags?hide_empty=false&search=bulk&per_page=51&page=2');

    expect(names(res, 'tags')).toEqual(['Bulk 51']);
    expect(res.body.previous_rest_url).toBe(`${api.base}/tags?hide_empty=false&search=bulk&per_page=51`);
  });
});
