import { describe, expect, it } from 'vitest';
import type { Reply } from '../support/stack';
import { useStack } from '../support/use-stack';

/**
 * Conditional requests (ETag, If-None-Match, If-Match) on every resource, through HTTP against the
 * embedded DynamoDB. Safe retries of creates (Idempotency-Key) are in idempotent-creates.test.ts.
 */
const {
  api,
  tokens: { editor, otherEditor, contributor },
} = await useStack({
  tokens: { editor: 'editor', otherEditor: ['editor', 'editor-2'], contributor: 'contributor' },
});

interface Resource {
  path: string;
  /** A create body for a record named `name`. */
  body: (name: string) => Record<string, unknown>;
  /** The body field holding the name. */
  field: string;
  /** Post types also answer by slug. */
  bySlug: boolean;
}

const RESOURCES: Resource[] = [
  {
    path: '/events',
    body: (title) => ({ title, start_date: '2031-03-04 10:00:00', end_date: '2031-03-04 11:00:00' }),
    field: 'title',
    bySlug: true,
  },
  { path: '/venues', body: (venue) => ({ venue }), field: 'venue', bySlug: true },
  { path: '/organizers', body: (organizer) => ({ organizer }), field: 'organizer', bySlug: true },
  { path: '/categories', body: (name) => ({ name }), field: 'name', bySlug: false },
  { path: '/tags', body: (name) => ({ name }), field: 'name', bySlug: false },
];

let n = 0;
const unique = (prefix: string) => `${prefix} ${++n}`;

async function create(r: Resource, name = unique('Record')) {
  const res = await api.post(r.path, r.body(name), { token: editor });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res;
}

const etagOf = (res: Reply) => res.headers.get('etag') ?? '';
const RECORD_TAG = /^"(\d+)-(\d+)-[\w-]+"$/;

describe.each(RESOURCES)('$path: entity tags and If-None-Match', (r) => {
  it('gives every single-record response a strong ETag naming the record and its version', async () => {
    const made = await create(r);
    const id = made.body.id as number;
    expect(etagOf(made)).toMatch(RECORD_TAG);
    expect(RECORD_TAG.exec(etagOf(made))!.slice(1)).toEqual([String(id), '1']);

    const read = await api.get(`${r.path}/${id}`, { token: editor });
    expect(read.status).toBe(200);
    expect(RECORD_TAG.exec(etagOf(read))!.slice(1)).toEqual([String(id), '1']);

    const updated = await api.put(`${r.path}/${id}`, { [r.field]: unique('Renamed') }, { token: editor });
    expect(updated.status).toBe(200);
    expect(RECORD_TAG.exec(etagOf(updated))!.slice(1)).toEqual([String(id), '2']);
  });

  it('answers If-None-Match with the current ETag with a 304 without a body, and a change with a 200', async () => {
    const made = await create(r);
    const url = `${r.path}/${made.body.id}`;
    const first = await api.get(url);
    const etag = etagOf(first);

    const again = await api.get(url, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.body).toBeUndefined();
    expect(etagOf(again)).toBe(etag);
    expect(again.headers.get('content-type')).toBeNull();
    // Weak comparison (RFC 9110 §13.1.2), and a list of tags.
    expect((await api.get(url, { headers: { 'if-none-match': `"x", W/${etag}` } })).status).toBe(304);
    expect((await api.get(url, { headers: { 'if-none-match': '*' } })).status).toBe(304);
    expect((await api.get(url, { headers: { 'if-none-match': '"something-else"' } })).status).toBe(200);

    await api.put(url, { [r.field]: unique('Changed') }, { token: editor });
    const changed = await api.get(url, { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(etagOf(changed)).not.toBe(etag);
    expect(changed.body[r.field === 'name' ? 'name' : r.field]).toMatch(/^Changed/);
  });

  it.runIf(r.bySlug)('tags reads by slug like reads by ID', async () => {
    const made = await create(r);
    const bySlug = await api.get(`${r.path}/by-slug/${made.body.slug}`);
    expect(RECORD_TAG.exec(etagOf(bySlug))!.slice(1)).toEqual([String(made.body.id), '1']);
    const again = await api.get(`${r.path}/by-slug/${made.body.slug}`, {
      headers: { 'if-none-match': etagOf(bySlug) },
    });
    expect(again.status).toBe(304);
  });

  it('tags lists by their body: 304 while unchanged, 200 once a record in it changes', async () => {
    const made = await create(r);
    // A list the record is in: unused terms are hidden by default, events listed by ID.
    const url =
      r.path === '/events'
        ? `/events?include=${made.body.id}`
        : r.bySlug
          ? r.path
          : `${r.path}?hide_empty=false`;
    const list = await api.get(url, { token: editor });
    expect(list.status).toBe(200);
    expect(list.body.total).toBeGreaterThan(0);
    expect(etagOf(list)).toMatch(/^"[\w-]+"$/);
    const same = await api.get(url, { token: editor, headers: { 'if-none-match': etagOf(list) } });
    expect(same.status).toBe(304);
    expect(same.body).toBeUndefined();

    await api.put(`${r.path}/${made.body.id}`, { [r.field]: unique('Renamed') }, { token: editor });
    const changed = await api.get(url, { token: editor, headers: { 'if-none-match': etagOf(list) } });
    expect(changed.status).toBe(200);
    expect(etagOf(changed)).not.toBe(etagOf(list));
  });
});

describe('entity tags follow what the caller sees', () => {
  it('differ between callers shown different bodies, with the same record version', async () => {
    const tag = (await create(RESOURCES[4]!)).body;
    // A private event counts for editors only.
    const draft = await api.post(
      '/events',
      { ...RESOURCES[0]!.body(unique('Private')), status: 'private', tags: [tag.id] },
      { token: editor },
    );
    expect(draft.status).toBe(201);

    const asEditor = await api.get(`/tags/${tag.id}`, { token: editor });
    const asAnyone = await api.get(`/tags/${tag.id}`);
    expect([asEditor.body.count, asAnyone.body.count]).toEqual([1, 0]);
    expect(etagOf(asEditor)).not.toBe(etagOf(asAnyone));
    expect(RECORD_TAG.exec(etagOf(asEditor))![2]).toBe(RECORD_TAG.exec(etagOf(asAnyone))![2]);
    const stale = await api.get(`/tags/${tag.id}`, { headers: { 'if-none-match': etagOf(asEditor) } });
    expect(stale.status).toBe(200);
  });

  it('change when an embedded record changes; If-Match still holds, since the event itself did not', async () => {
    const venue = (await create(RESOURCES[1]!)).body;
    const event = (
      await api.post(
        '/events',
        { ...RESOURCES[0]!.body(unique('Embedding')), venue: venue.id },
        { token: editor },
      )
    ).body;
    const before = await api.get(`/events/${event.id}`);

    await api.put(`/venues/${venue.id}`, { city: 'Elsewhere' }, { token: editor });
    const after = await api.get(`/events/${event.id}`, { headers: { 'if-none-match': etagOf(before) } });
    expect(after.status).toBe(200);
    expect(after.body.venue.city).toBe('Elsewhere');

    const edit = await api.put(
      `/events/${event.id}`,
      { title: unique('Still mine') },
      { token: editor, headers: { 'if-match': etagOf(before) } },
    );
    expect(edit.status).toBe(200);
  });
});

describe.each(RESOURCES)('$path: If-Match on updates and deletes', (r) => {
  it('lets only the first of two editors who read the same version write; the second gets 412', async () => {
    const made = await create(r);
    const url = `${r.path}/${made.body.id}`;
    const [a, b] = await Promise.all([api.get(url, { token: editor }), api.get(url, { token: otherEditor })]);
    expect(etagOf(a)).toMatch(RECORD_TAG);

    const first = await api.put(
      url,
      { [r.field]: unique('First') },
      { token: editor, headers: { 'if-match': etagOf(a) } },
    );
    expect(first.status).toBe(200);
    const second = await api.put(
      url,
      { [r.field]: unique('Second') },
      { token: otherEditor, headers: { 'if-match': etagOf(b) } },
    );
    expect(second.status).toBe(412);
    expect(second.body).toEqual({
      code: 'rest_precondition_failed',
      message: expect.stringContaining('If-Match'),
      data: { status: 412 },
    });

    const now = await api.get(url, { token: editor });
    expect(now.body[r.field === 'name' ? 'name' : r.field]).toBe(first.body[r.field]);
    // The first writer's new ETag carries on.
    const next = await api.patch(
      url,
      { [r.field]: unique('Third') },
      { token: editor, headers: { 'if-match': etagOf(first) } },
    );
    expect(next.status).toBe(200);
  });

  it('refuses a delete with an old ETag, changing nothing, and takes one with the current ETag', async () => {
    const made = await create(r);
    const url = `${r.path}/${made.body.id}`;
    const old = etagOf(made);
    const renamed = await api.put(url, { [r.field]: unique('Moved on') }, { token: editor });

    const refused = await api.del(`${url}?force=true`, { token: editor, headers: { 'if-match': old } });
    expect(refused.status).toBe(412);
    expect(refused.body.code).toBe('rest_precondition_failed');
    expect((await api.get(url, { token: editor })).status).toBe(200);

    const done = await api.del(`${url}?force=true`, {
      token: editor,
      headers: { 'if-match': etagOf(renamed) },
    });
    expect(done.status).toBe(200);
    expect((await api.get(url, { token: editor })).status).toBe(404);
  });

  it('treats If-Match: * as any existing record, and weak or foreign tags as none', async () => {
    const made = await create(r);
    const url = `${r.path}/${made.body.id}`;
    const etag = etagOf(made);
    for (const tag of [`W/${etag}`, '"not-a-version"', `"${Number(made.body.id) + 1}-1"`]) {
      const res = await api.put(
        url,
        { [r.field]: unique('Nope') },
        { token: editor, headers: { 'if-match': tag } },
      );
      expect(res.status, tag).toBe(412);
    }
    const star = await api.put(
      url,
      { [r.field]: unique('Any') },
      { token: editor, headers: { 'if-match': '*' } },
    );
    expect(star.status).toBe(200);
    // `"<id>-<version>"` without the digest names the version too.
    const bare = await api.put(
      url,
      { [r.field]: unique('Bare') },
      { token: editor, headers: { 'if-match': `"${made.body.id}-2"` } },
    );
    expect(bare.status).toBe(200);
    const missing = await api.put(
      `${r.path}/987654`,
      { [r.field]: 'Ghost' },
      { token: editor, headers: { 'if-match': '*' } },
    );
    expect(missing.status).toBe(404);
  });

  it('checks the version in the write itself: of concurrent writes with one ETag exactly one lands', async () => {
    const made = await create(r);
    const url = `${r.path}/${made.body.id}`;
    const etag = etagOf(made);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        api.put(
          url,
          { [r.field]: `Racer ${made.body.id} ${i}` },
          { token: editor, headers: { 'if-match': etag } },
        ),
      ),
    );
    const statuses = results.map((x) => x.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 412)).toHaveLength(7);
    const winner = results.find((x) => x.status === 200)!;
    const now = await api.get(url, { token: editor });
    expect(now.body[r.field]).toBe(winner.body[r.field]);
    expect(RECORD_TAG.exec(etagOf(now))![2]).toBe('2');
  });
});

describe('If-Match and the other checks', () => {
  it('keeps 403 for callers who may not edit, before any precondition', async () => {
    const made = await create(RESOURCES[0]!);
    const res = await api.put(
      `/events/${made.body.id}`,
      { title: 'Not yours' },
      { token: contributor, headers: { 'if-match': '"1-1"' } },
    );
    expect(res.status).toBe(403);
  });

  it('keeps 410 for trashing a trashed event, and 412 applies to trashing too', async () => {
    const made = await create(RESOURCES[0]!);
    const url = `/events/${made.body.id}`;
    const trashed = await api.del(url, { token: editor, headers: { 'if-match': etagOf(made) } });
    expect(trashed.status).toBe(200);
    expect(RECORD_TAG.exec(etagOf(trashed))![2]).toBe('2');
    expect((await api.del(url, { token: editor, headers: { 'if-match': etagOf(made) } })).status).toBe(410);
    const restore = await api.put(
      url,
      { status: 'publish' },
      { token: editor, headers: { 'if-match': etagOf(made) } },
    );
    expect(restore.status).toBe(412);
  });

  it('without If-Match, writes go ahead as before', async () => {
    const made = await create(RESOURCES[3]!);
    const res = await api.put(`/categories/${made.body.id}`, { name: unique('Free') }, { token: editor });
    expect(res.status).toBe(200);
  });
});
