import { describe, expect, it } from 'vitest';
import { useStack } from '../support/use-stack';

const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

const create = async (body: Record<string, unknown>) => {
  const res = await api.post('/categories', body, { token: editor });
  expect(res.status).toBe(201);
  return res.body;
};

describe('POST /categories', () => {
  it('creates a category with the reference shape, a Location header and count 0', async () => {
    const res = await api.post(
      '/categories',
      { name: 'Music', description: 'All things music' },
      { token: editor },
    );

    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual([
      'id',
      'count',
      'description',
      'name',
      'slug',
      'taxonomy',
      'parent',
      'meta',
      'url',
      'urls',
    ]);
    expect(res.body).toMatchObject({
      count: 0,
      name: 'Music',
      slug: 'music',
      taxonomy: 'tribe_events_cat',
      parent: 0,
      meta: [],
    });
    expect(res.body.url).toBe('http://calendar.test/events/category/music/');
    expect(res.body.urls).toEqual({
      self: `${api.base}/categories/${res.body.id}`,
      collection: `${api.base}/categories`,
    });
    expect(res.headers.get('location')).toBe(`${api.base}/categories/${res.body.id}`);
    expect(res.headers.get('x-cal-api-version')).toBe('v1');
    expect(res.headers.get('x-cal-api-root')).toBe(`${api.base}/`);
  });

  it('nests a child under its parent in url and urls.up', async () => {
    const parent = await create({ name: 'Theatre' });

    const child = await create({ name: 'Opera', parent: parent.id });

    expect(child.parent).toBe(parent.id);
    expect(child.url).toBe('http://calendar.test/events/category/theatre/opera/');
    expect(child.urls.up).toBe(`${api.base}/categories/${parent.id}`);
  });

  it('accepts a form-encoded body', async () => {
    const res = await api.call('POST', '/categories', {
      form: { name: 'Form Sent', description: 'via form' },
      token: editor,
    });

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Form Sent', slug: 'form-sent', description: 'via form' });
  });

  it('strips HTML from the name and unsafe HTML from the description', async () => {
    const term = await create({
      name: '<b>Bold</b> Name',
      description: '<p onclick="x()">Hi<script>alert(1)</script></p>',
    });

    expect(term.name).toBe('Bold Name');
    expect(term.description).toBe('<p>Hi</p>');
  });

  it('gives a taken slug the next free suffix', async () => {
    await create({ name: 'Slug Base' });

    const second = await create({ name: 'Other', slug: 'slug-base' });
    const third = await create({ name: 'Third', slug: 'Slug Base' });

    expect(second.slug).toBe('slug-base-2');
    expect(third.slug).toBe('slug-base-3');
  });

  it('keeps slugs unique under concurrent creates', async () => {
    const names = Array.from({ length: 6 }, (_, i) => `Race ${i}`);

    const results = await Promise.all(
      names.map((name) => api.post('/categories', { name, slug: 'race' }, { token: editor })),
    );

    expect(results.map((r) => r.status)).toEqual(names.map(() => 201));
    const slugs = results.map((r) => r.body.slug).sort();
    expect(new Set(slugs).size).toBe(6);
    expect(slugs).toContain('race');
  });

  it('answers a duplicate name (any case) with 400 term_exists naming the existing term', async () => {
    const first = await create({ name: 'Dup Name' });

    const res = await api.post('/categories', { name: 'dup name' }, { token: editor });

    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'term_exists',
      message: expect.any(String),
      data: { status: 400, term_id: first.id },
    });
  });

  it('rejects a missing name with rest_missing_callback_param', async () => {
    const res = await api.post('/categories', { description: 'x' }, { token: editor });

    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): name',
      data: { status: 400, params: ['name'] },
    });
  });

  it.each([
    ['an empty name', { name: '' }, 'name'],
    ['a name that is only markup', { name: '<i></i>' }, 'name'],
    ['an over-long name', { name: 'x'.repeat(1001) }, 'name'],
    ['a non-integer parent', { name: 'P1', parent: 'foo' }, 'parent'],
    ['an unknown parent', { name: 'P2', parent: 999_999 }, 'parent'],
    ['a negative parent', { name: 'P3', parent: -1 }, 'parent'],
    ['a name of the wrong type', { name: ['a'] }, 'name'],
  ])('rejects %s with 400 rest_invalid_param and creates nothing', async (_label, body, param) => {
    const before = await api.get('/categories?hide_empty=false&per_page=50');

    const res = await api.post('/categories', body, { token: editor });

    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect(res.body.data.params).toHaveProperty(param);
    expect(res.body.data.details[param]).toMatchObject({
      code: expect.any(String),
      message: expect.any(String),
    });
    const after = await api.get('/categories?hide_empty=false&per_page=50');
    expect(after.body.total).toBe(before.body.total);
  });
});

describe('GET /categories/{id}', () => {
  it('reads a category', async () => {
    const term = await create({ name: 'Readable', description: 'd' });

    const res = await api.get(`/categories/${term.id}`);

    expect(res.status).toBe(200);
    expect(res.body).toEqual(term);
  });

  it('answers 404 rest-category-not-found for an unknown ID', async () => {
    const res = await api.get('/categories/999999');

    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      code: 'rest-category-not-found',
      message: 'Category with ID 999999 does not exist.',
      data: { status: 404 },
    });
  });

  it('answers 404 for the ID of a tag', async () => {
    const tag = await api.post('/tags', { name: 'Not a category' }, { token: editor });

    const res = await api.get(`/categories/${tag.body.id}`);

    expect(res.status).toBe(404);
    expect(res.body.code).toBe('rest-category-not-found');
  });

  it('answers 404 rest_no_route for a non-numeric ID', async () => {
    const res = await api.get('/categories/abc');

    expect(res.status).toBe(404);
    expect(res.body.code).toBe('rest_no_route');
  });
});

describe('updating a category', () => {
  it('changes only the fields sent (PATCH)', async () => {
    const term = await create({ name: 'Partial', description: 'keep me' });

    const res = await api.patch(`/categories/${term.id}`, { name: 'Partial Renamed' }, { token: editor });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Partial Renamed', description: 'keep me', slug: 'partial' });
  });

  it('treats POST and PUT as the same partial update', async () => {
    const term = await create({ name: 'Verbs' });

    const viaPost = await api.post(`/categories/${term.id}`, { description: 'one' }, { token: editor });
    const viaPut = await api.put(`/categories/${term.id}`, { slug: 'verbs-new' }, { token: editor });

    expect(viaPost.body).toMatchObject({ name: 'Verbs', description: 'one' });
    expect(viaPut.body).toMatchObject({ name: 'Verbs', description: 'one', slug: 'verbs-new' });
    expect((await api.get(`/categories/${term.id}`)).body.slug).toBe('verbs-new');
  });

  it('clears the description when sent empty', async () => {
    const term = await create({ name: 'Clearable', description: 'text' });

    const res = await api.patch(`/categories/${term.id}`, { description: '' }, { token: editor });

    expect(res.body.description).toBe('');
  });

  it('frees the old name and slug on rename', async () => {
    const term = await create({ name: 'Old Name' });
    await api.patch(`/categories/${term.id}`, { name: 'New Name', slug: 'new-name' }, { token: editor });

    const again = await create({ name: 'Old Name' });

    expect(again.slug).toBe('old-name');
  });

  it('refuses a parent that would make a cycle', async () => {
    const a = await create({ name: 'Cycle A' });
    const b = await create({ name: 'Cycle B', parent: a.id });

    const res = await api.patch(`/categories/${a.id}`, { parent: b.id }, { token: editor });
    const self = await api.patch(`/categories/${a.id}`, { parent: a.id }, { token: editor });

    expect(res.status).toBe(400);
    expect(res.body.data.params).toHaveProperty('parent');
    expect(self.status).toBe(400);
    expect((await api.get(`/categories/${a.id}`)).body.parent).toBe(0);
  });

  it('refuses renaming onto another term name', async () => {
    const a = await create({ name: 'Taken One' });
    const b = await create({ name: 'Taken Two' });

    const res = await api.patch(`/categories/${b.id}`, { name: 'TAKEN ONE' }, { token: editor });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'term_exists', data: { term_id: a.id } });
    expect((await api.get(`/categories/${b.id}`)).body.name).toBe('Taken Two');
  });

  it('answers 404 for an unknown ID', async () => {
    const res = await api.patch('/categories/888888', { name: 'x' }, { token: editor });

    expect(res.status).toBe(404);
    expect(res.body.code).toBe('rest-category-not-found');
  });
});

describe('DELETE /categories/{id}', () => {
  it('deletes permanently and answers with the deleted term', async () => {
    const term = await create({ name: 'Doomed' });

    const res = await api.del(`/categories/${term.id}`, { token: editor });

    expect(res.status).toBe(200);
    expect(res.body).toEqual(term);
    expect((await api.get(`/categories/${term.id}`)).status).toBe(404);
    expect((await api.del(`/categories/${term.id}`, { token: editor })).status).toBe(404);
  });

  it('moves children up to the deleted term’s parent and frees its name', async () => {
    const top = await create({ name: 'Grand' });
    const mid = await create({ name: 'Middle', parent: top.id });
    const leaf = await create({ name: 'Leaf', parent: mid.id });

    await api.del(`/categories/${mid.id}`, { token: editor });

    expect((await api.get(`/categories/${leaf.id}`)).body.parent).toBe(top.id);
    expect((await create({ name: 'Middle' })).slug).toBe('middle');
  });
});
