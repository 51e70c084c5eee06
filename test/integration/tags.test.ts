import { describe, expect, it } from 'vitest';
import { useStack } from '../support/use-stack';

/** Tags: the flat taxonomy (`post_tag`). Lists are covered by term-lists.test.ts. */
const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

const create = async (body: Record<string, unknown>) => {
  const res = await api.post('/tags', body, { token: editor });
  expect(res.status).toBe(201);
  return res.body;
};

const TAG_KEYS = ['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'meta', 'url', 'urls'];

describe('POST /tags', () => {
  it('creates a tag with the reference shape and no parent key (sample 214)', async () => {
    const res = await api.post('/tags', { name: 'Late Night', description: 'After 10pm' }, { token: editor });

    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(TAG_KEYS);
    expect(res.body).toEqual({
      id: expect.any(Number),
      count: 0,
      description: 'After 10pm',
      name: 'Late Night',
      slug: 'late-night',
      taxonomy: 'post_tag',
      meta: [],
      url: 'http://calendar.test/tag/late-night/',
      urls: { self: `${api.base}/tags/${res.body.id}`, collection: `${api.base}/tags` },
    });
  });

  it('answers with a Location header naming the new tag', async () => {
    const res = await api.post('/tags', { name: 'Located' }, { token: editor });

    expect(res.headers.get('location')).toBe(`${api.base}/tags/${res.body.id}`);
  });

  it('ignores a parent in the body: tags have none', async () => {
    const parent = await create({ name: 'Would-be Parent' });

    const res = await api.post('/tags', { name: 'Flat', parent: parent.id }, { token: editor });

    expect(res.status).toBe(201);
    expect(res.body).not.toHaveProperty('parent');
    expect(res.body.urls).not.toHaveProperty('up');
    expect(res.body.url).toBe('http://calendar.test/tag/flat/');
  });

  it.each([999_999, 'not-a-number', -1])('ignores parent=%j without validating it', async (parent) => {
    const res = await api.post('/tags', { name: `Flat ${parent}`, parent }, { token: editor });

    expect(res.status).toBe(201);
    expect(res.body).not.toHaveProperty('parent');
  });

  it('ignores body keys the contract does not know', async () => {
    const res = await api.post('/tags', { name: 'Extra Keys', colour: 'red', count: 99 }, { token: editor });

    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(TAG_KEYS);
    expect(res.body.count).toBe(0);
  });

  it('accepts a form-encoded body', async () => {
    const res = await api.call('POST', '/tags', {
      form: { name: 'Form Tag', description: 'sent as a form' },
      token: editor,
    });

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Form Tag', slug: 'form-tag', description: 'sent as a form' });
  });

  it('uses a given slug, cleaned', async () => {
    const tag = await create({ name: 'Custom Slug', slug: 'My Own Slug!' });

    expect(tag.slug).toBe('my-own-slug');
    expect(tag.url).toBe('http://calendar.test/tag/my-own-slug/');
  });

  it('gives a taken slug the next free suffix', async () => {
    await create({ name: 'Outdoor' });

    const second = await create({ name: 'Outdoors', slug: 'outdoor' });

    expect(second.slug).toBe('outdoor-2');
  });

  it('answers a duplicate name (any case) with 400 term_exists naming the existing tag', async () => {
    const first = await create({ name: 'Family' });

    const res = await api.post('/tags', { name: 'FAMILY' }, { token: editor });

    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'term_exists',
      message: expect.any(String),
      data: { status: 400, term_id: first.id },
    });
  });

  it('allows a tag with the name and slug of a category', async () => {
    const category = await api.post('/categories', { name: 'Shared Name' }, { token: editor });

    const tag = await create({ name: 'Shared Name' });

    expect(category.status).toBe(201);
    expect(tag.slug).toBe('shared-name');
    expect(tag.id).not.toBe(category.body.id);
  });

  it('rejects a missing name with rest_missing_callback_param', async () => {
    const res = await api.post('/tags', { description: 'no name' }, { token: editor });

    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): name',
      data: { status: 400, params: ['name'] },
    });
  });

  it.each([
    ['an empty name', { name: '' }, 'name'],
    ['an empty slug', { name: 'Empty Slug', slug: '' }, 'slug'],
    ['a slug without letters or digits', { name: 'Dashes', slug: '---' }, 'slug'],
    ['a description of the wrong type', { name: 'Typed', description: { a: 1 } }, 'description'],
  ])('rejects %s with 400 rest_invalid_param and creates nothing', async (_label, body, param) => {
    const before = await api.get('/tags?hide_empty=false&per_page=50');

    const res = await api.post('/tags', body, { token: editor });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'rest_invalid_param',
      data: { status: 400, params: { [param]: expect.any(String) } },
    });
    expect((await api.get('/tags?hide_empty=false&per_page=50')).body).toEqual(before.body);
  });
});

describe('GET /tags/{id}', () => {
  it('reads a tag (sample 154)', async () => {
    const tag = await create({ name: 'Free', description: 'No ticket needed' });

    const res = await api.get(`/tags/${tag.id}`);

    expect(res.status).toBe(200);
    expect(res.body).toEqual(tag);
  });

  it('answers 404 rest-tag-not-found for an unknown ID', async () => {
    const res = await api.get('/tags/999999');

    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      code: 'rest-tag-not-found',
      message: 'Tag with ID 999999 does not exist.',
      data: { status: 404 },
    });
  });

  it('answers 404 for the ID of a category', async () => {
    const category = await api.post('/categories', { name: 'Category Not Tag' }, { token: editor });

    const res = await api.get(`/tags/${category.body.id}`);

    expect(res.status).toBe(404);
    expect(res.body.code).toBe('rest-tag-not-found');
  });

  it('answers 404 rest_no_route for a non-numeric ID', async () => {
    const res = await api.get('/tags/free');

    expect(res.status).toBe(404);
    expect(res.body.code).toBe('rest_no_route');
  });

  it('answers 404 for ID 0, like any ID that names no tag (decisions §8)', async () => {
    const res = await api.get('/tags/0');

    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({
      code: 'rest-tag-not-found',
      message: 'Tag with ID 0 does not exist.',
      data: { status: 404 },
    });
  });
});

describe('updating a tag', () => {
  it('changes only the fields sent (PATCH)', async () => {
    const tag = await create({ name: 'Patchable', description: 'keep me' });

    const res = await api.patch(`/tags/${tag.id}`, { name: 'Patched' }, { token: editor });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...tag, name: 'Patched' });
  });

  it('treats POST and PUT as the same partial update', async () => {
    const tag = await create({ name: 'Two Verbs' });

    const viaPost = await api.post(`/tags/${tag.id}`, { description: 'posted' }, { token: editor });
    const viaPut = await api.put(`/tags/${tag.id}`, { slug: 'two-verbs-new' }, { token: editor });

    expect(viaPost.status).toBe(200);
    expect(viaPut.body).toMatchObject({ name: 'Two Verbs', description: 'posted', slug: 'two-verbs-new' });
    expect(viaPut.body.url).toBe('http://calendar.test/tag/two-verbs-new/');
  });

  it('ignores a parent in the body', async () => {
    const other = await create({ name: 'Other Tag' });
    const tag = await create({ name: 'Still Flat' });

    const res = await api.patch(`/tags/${tag.id}`, { parent: other.id }, { token: editor });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...tag });
  });

  it('clears the description when sent empty', async () => {
    const tag = await create({ name: 'Clear Me', description: 'text' });

    const res = await api.patch(`/tags/${tag.id}`, { description: '' }, { token: editor });

    expect(res.body.description).toBe('');
  });

  it('refuses a slug taken by another tag with a 400 naming slug (issue 8)', async () => {
    await create({ name: 'Taken Slug' });
    const tag = await create({ name: 'Wants Slug' });

    const res = await api.patch(`/tags/${tag.id}`, { slug: 'taken-slug' }, { token: editor });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'rest_invalid_param',
      data: { details: { slug: { code: 'rest_slug_taken' } } },
    });
    expect((await api.get(`/tags/${tag.id}`)).body.slug).toBe('wants-slug');
  });

  it('refuses renaming onto another tag’s name', async () => {
    const a = await create({ name: 'Name One' });
    const b = await create({ name: 'Name Two' });

    const res = await api.patch(`/tags/${b.id}`, { name: 'name one' }, { token: editor });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'term_exists', data: { status: 400, term_id: a.id } });
    expect((await api.get(`/tags/${b.id}`)).body.name).toBe('Name Two');
  });

  it('answers 404 rest-tag-not-found for an unknown ID (sample 216 answers 400; decisions §2)', async () => {
    const res = await api.put('/tags/999999', { name: 'x' }, { token: editor });

    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      code: 'rest-tag-not-found',
      message: 'Tag with ID 999999 does not exist.',
      data: { status: 404 },
    });
  });

  it('answers 404 for the ID of a category', async () => {
    const category = await api.post('/categories', { name: 'Not Updatable As Tag' }, { token: editor });

    const res = await api.patch(`/tags/${category.body.id}`, { name: 'x' }, { token: editor });

    expect(res.status).toBe(404);
    expect((await api.get(`/categories/${category.body.id}`)).body.name).toBe('Not Updatable As Tag');
  });
});

describe('DELETE /tags/{id}', () => {
  it('deletes permanently and answers with the deleted tag (sample 215)', async () => {
    const tag = await create({ name: 'Unused Tag' });

    const res = await api.del(`/tags/${tag.id}`, { token: editor });

    expect(res.status).toBe(200);
    expect(res.body).toEqual(tag);
    expect((await api.get(`/tags/${tag.id}`)).status).toBe(404);
  });

  it('answers 404 when the tag is already deleted', async () => {
    const tag = await create({ name: 'Deleted Twice' });
    await api.del(`/tags/${tag.id}`, { token: editor });

    const res = await api.del(`/tags/${tag.id}`, { token: editor });

    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      code: 'rest-tag-not-found',
      message: `Tag with ID ${tag.id} does not exist.`,
      data: { status: 404 },
    });
  });

  it('answers 404 for the ID of a category and leaves it alone', async () => {
    const category = await api.post('/categories', { name: 'Not Deletable As Tag' }, { token: editor });

    const res = await api.del(`/tags/${category.body.id}`, { token: editor });

    expect(res.status).toBe(404);
    expect((await api.get(`/categories/${category.body.id}`)).status).toBe(200);
  });

  it('frees the name and the slug', async () => {
    const tag = await create({ name: 'Reusable' });
    await api.del(`/tags/${tag.id}`, { token: editor });

    const again = await create({ name: 'Reusable' });

    expect(again.slug).toBe('reusable');
    expect(again.id).not.toBe(tag.id);
  });

  it('leaves the events that carried it, without the tag', async () => {
    const tag = await create({ name: 'On An Event' });
    const keep = await create({ name: 'Kept On Event' });
    const event = await api.post(
      '/events',
      {
        title: 'Tagged',
        start_date: '2030-06-01 10:00:00',
        end_date: '2030-06-01 11:00:00',
        tags: [tag.id, keep.id],
      },
      { token: editor },
    );

    await api.del(`/tags/${tag.id}`, { token: editor });

    const after = await api.get(`/events/${event.body.id}`);
    expect(after.status).toBe(200);
    expect(after.body.tags.map((t: { id: number }) => t.id)).toEqual([keep.id]);
  });
});
