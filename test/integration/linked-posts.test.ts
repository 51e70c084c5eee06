import { beforeAll, describe, expect, it } from 'vitest';
import { useStack } from '../support/use-stack';

/**
 * What venues and organizers share, run for both: writes, reads, trash, roles and lists.
 * Type-specific fields are in venues.test.ts and organizers.test.ts.
 */
const {
  api,
  tokens: { editor, author, contributor, otherContributor, subscriber },
} = await useStack({
  tokens: {
    editor: 'editor',
    author: ['author', 'author-1'],
    contributor: ['contributor', 'contributor-1'],
    otherContributor: ['contributor', 'contributor-2'],
    subscriber: 'subscriber',
  },
});

const ALL_STATUSES = 'publish,future,draft,pending,private,trash';

describe.each([
  {
    collection: 'venues',
    one: 'venue',
    Label: 'Venue',
    other: 'organizers',
    otherOne: 'organizer',
    extra: { city: 'Paris' },
  },
  {
    collection: 'organizers',
    one: 'organizer',
    Label: 'Organizer',
    other: 'venues',
    otherOne: 'venue',
    extra: { phone: '+33 1 23' },
  },
])('$collection', ({ collection, one, Label, other, otherOne, extra }) => {
  const path = `/${collection}`;
  const create = async (name: string, fields: Record<string, unknown> = {}, token = editor) => {
    const res = await api.post(path, { [one]: name, ...fields }, { token });
    expect(res.status).toBe(201);
    return res.body;
  };
  /** Every record of the type, whatever its status: what a rejected write must leave unchanged. */
  const totalStored = async () =>
    (await api.get(`${path}?status=${ALL_STATUSES}&per_page=1`, { token: editor })).body.total;

  describe(`POST ${path}`, () => {
    it('creates with 201, a Location header and the representation (no json_ld, no rest_url)', async () => {
      const res = await api.post(
        path,
        { [one]: 'Fresh Record', description: '<p>About it</p>', ...extra },
        { token: editor },
      );

      expect(res.status).toBe(201);
      expect(res.headers.get('location')).toBe(`${api.base}${path}/${res.body.id}`);
      expect(res.body).toMatchObject({
        id: expect.any(Number),
        author: 'user-editor',
        status: 'publish',
        url: `http://calendar.test/${one}/fresh-record/`,
        [one]: 'Fresh Record',
        description: '<p>About it</p>',
        slug: 'fresh-record',
        ...extra,
        global_id: `calendar.test?id=${res.body.id}`,
        global_id_lineage: [`calendar.test?id=${res.body.id}`],
      });
      expect(res.body.date).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(res.body.date_utc).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(res.body).not.toHaveProperty('json_ld');
      expect(res.body).not.toHaveProperty('rest_url');
      expect(res.body).not.toHaveProperty('excerpt');
    });

    it('takes IDs from the shared post sequence: a new record never reuses another type’s ID', async () => {
      const mine = await create('Sequence Mine');
      const theirs = await api.post(`/${other}`, { [otherOne]: 'Sequence Theirs' }, { token: editor });

      expect(theirs.body.id).toBeGreaterThan(mine.id);
    });

    it('accepts a form-encoded body', async () => {
      const res = await api.call('POST', path, {
        form: { [one]: 'Form Record', description: 'via form' },
        token: editor,
      });

      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ [one]: 'Form Record', description: 'via form', slug: 'form-record' });
    });

    it('strips markup from the name and unsafe HTML from the description', async () => {
      const rec = await create('<b>Bold</b> Name', {
        description: '<p onclick="x()">Hi<script>alert(1)</script></p>',
      });

      expect(rec[one]).toBe('Bold Name');
      expect(rec.description).toBe('<p>Hi</p>');
    });

    it('always creates a new record for a repeated name, with the next free slug', async () => {
      const first = await create('Twice Named', { description: 'same' });

      const second = await create('Twice Named', { description: 'same' });
      const third = await create('Twice Named');

      expect(second.id).not.toBe(first.id);
      expect([first.slug, second.slug, third.slug]).toEqual([
        'twice-named',
        'twice-named-2',
        'twice-named-3',
      ]);
    });

    it('keeps slugs unique under concurrent creates of the same name', async () => {
      const results = await Promise.all(
        Array.from({ length: 6 }, () => api.post(path, { [one]: 'Race Name' }, { token: editor })),
      );

      expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
      const slugs = results.map((r) => r.body.slug).sort();
      expect(slugs).toEqual([
        'race-name',
        'race-name-2',
        'race-name-3',
        'race-name-4',
        'race-name-5',
        'race-name-6',
      ]);
    });

    it('uses the given publication date (site time zone UTC)', async () => {
      const rec = await create('Dated', { date: '2025-01-02 03:04:05' });

      expect(rec.date).toBe('2025-01-02 03:04:05');
      expect(rec.date_utc).toBe('2025-01-02 03:04:05');
    });

    it('answers 401 to anonymous callers and 403 to subscribers, creating nothing', async () => {
      const before = await totalStored();

      const anonymous = await api.post(path, { [one]: 'Nope' });
      const sub = await api.post(path, { [one]: 'Nope' }, { token: subscriber });

      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({
        code: 'rest_forbidden',
        message: 'Sorry, you are not allowed to do that.',
        data: { status: 401 },
      });
      expect(sub.status).toBe(403);
      expect(sub.body.code).toBe('rest_forbidden');
      expect(await totalStored()).toBe(before);
    });

    it('checks the token before the body: anonymous with a bad body is still 401', async () => {
      const res = await api.post(path, { description: 'no name' });

      expect(res.status).toBe(401);
    });

    it('answers a missing name with rest_missing_callback_param', async () => {
      const res = await api.post(path, { description: 'no name' }, { token: editor });

      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 'rest_missing_callback_param',
        message: `Missing parameter(s): ${one}`,
        data: { status: 400, params: [one] },
      });
    });

    it.each([
      ['an empty name', { NAME: '' }, 'NAME'],
      ['a name that is only markup', { NAME: '<i></i>' }, 'NAME'],
      ['an over-long name', { NAME: 'x'.repeat(1001) }, 'NAME'],
      ['a name of the wrong type', { NAME: ['a'] }, 'NAME'],
      ['a website that is not a URL', { website: 'not a url' }, 'website'],
      ['a website that is not http(s)', { website: 'ftp://files.example.com' }, 'website'],
      ['a javascript: website', { website: 'javascript:alert(1)' }, 'website'],
      ['a bad date', { date: 'before my birthday' }, 'date'],
      ['a bad date_utc', { date_utc: 'foo' }, 'date_utc'],
      ['an unknown status', { status: 'kinda_thinking_about_it' }, 'status'],
      ['an over-long description', { description: 'x'.repeat(100_001) }, 'description'],
      ['an over-long phone', { phone: '1'.repeat(2001) }, 'phone'],
      ['a numeric image ID', { image: 12 }, 'image'],
      ['an image that is not a URL', { image: 'poster.png' }, 'image'],
      ['an author of the wrong type', { author: true }, 'author'],
    ])(
      'rejects %s with 400 rest_invalid_param naming the field, creating nothing',
      async (_label, fields, param) => {
        const before = await totalStored();
        const body: Record<string, unknown> = { [one]: 'Valid Name' };
        for (const [k, v] of Object.entries(fields)) body[k === 'NAME' ? one : k] = v;

        const res = await api.post(path, body, { token: editor });

        const name = param === 'NAME' ? one : param;
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('rest_invalid_param');
        expect(res.body.message).toBe(`Invalid parameter(s): ${name}`);
        expect(res.body.data.params).toHaveProperty(name);
        expect(res.body.data.details[name]).toMatchObject({
          code: expect.any(String),
          message: expect.any(String),
        });
        expect(await totalStored()).toBe(before);
      },
    );

    it('says why a numeric image is refused: there is no media library', async () => {
      const res = await api.post(path, { [one]: 'Imageless', image: '42' }, { token: editor });

      expect(res.status).toBe(400);
      expect(res.body.data.params.image).toMatch(/no media library/);
    });

    it('publishes for authors and editors, drafts for contributors, and makes a contributor’s publish pending', async () => {
      const byAuthor = await create('By Author', {}, author);
      const draft = await create('By Contributor', {}, contributor);
      const asked = await create('Contributor Asks Publish', { status: 'publish' }, contributor);
      const editorDraft = await create('Editor Draft', { status: 'draft' });

      expect(byAuthor).toMatchObject({ status: 'publish', author: 'author-1' });
      expect(draft).toMatchObject({ status: 'draft', author: 'contributor-1' });
      expect(asked.status).toBe('pending');
      expect(editorDraft.status).toBe('draft');
    });

    it('lets editors set the author; for anyone else author is a 400', async () => {
      const byEditor = await create('Ghost Written', { author: 'someone-else' });
      const byAuthor = await api.post(
        path,
        { [one]: 'Self Claimed', author: 'someone-else' },
        { token: author },
      );

      expect(byEditor.author).toBe('someone-else');
      expect(byAuthor.status).toBe(400);
      expect(byAuthor.body.data.params.author).toMatch(/editors/);
    });
  });

  describe(`GET ${path}/{id} and by slug`, () => {
    it('reads by ID and by slug, with json_ld on single reads', async () => {
      const rec = await create('Single Read', { description: 'Described', ...extra });

      const byId = await api.get(`${path}/${rec.id}`);
      const bySlug = await api.get(`${path}/by-slug/${rec.slug}`);

      expect(byId.status).toBe(200);
      expect(byId.body).toEqual({ ...rec, json_ld: expect.any(Object) });
      expect(Object.keys(byId.body)).toContain('json_ld');
      expect(byId.body.json_ld).toMatchObject({
        '@type': one === 'venue' ? 'Place' : 'Person',
        name: 'Single Read',
        description: 'Described',
      });
      expect(bySlug.body).toEqual(byId.body);
    });

    it('answers 404 for an unknown ID, with the decisions’ code and message', async () => {
      const res = await api.get(`${path}/999999`);

      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        code: `rest-${one}-not-found`,
        message: `${Label} with ID 999999 does not exist.`,
        data: { status: 404 },
      });
    });

    it('answers 404 for an unknown slug', async () => {
      const res = await api.get(`${path}/by-slug/no-such-thing`);

      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        code: `rest-${one}-not-found`,
        message: `${Label} with slug "no-such-thing" does not exist.`,
        data: { status: 404 },
      });
    });

    it(`answers 404 for the ID or slug of ${otherOne === 'venue' ? 'a venue' : 'an organizer'}`, async () => {
      const theirs = await api.post(`/${other}`, { [otherOne]: `Only A ${otherOne}` }, { token: editor });

      const byId = await api.get(`${path}/${theirs.body.id}`);
      const bySlug = await api.get(`${path}/by-slug/${theirs.body.slug}`);

      expect(byId.status).toBe(404);
      expect(byId.body.code).toBe(`rest-${one}-not-found`);
      expect(bySlug.status).toBe(404);
    });

    it('answers 404 rest_no_route for a non-numeric ID', async () => {
      const res = await api.get(`${path}/abc`);

      expect(res.status).toBe(404);
      expect(res.body.code).toBe('rest_no_route');
    });

    it('shows a draft to editors and its author only (403 not-accessible for others)', async () => {
      const draft = await create('Private Draft', {}, contributor);

      const anonymous = await api.get(`${path}/${draft.id}`);
      const other = await api.get(`${path}/${draft.id}`, { token: otherContributor });
      const owner = await api.get(`${path}/${draft.id}`, { token: contributor });
      const byEditor = await api.get(`${path}/by-slug/${draft.slug}`, { token: editor });

      expect(anonymous.status).toBe(403);
      expect(anonymous.body).toEqual({
        code: `${one}-not-accessible`,
        message: `The requested ${one} is not accessible`,
        data: { status: 403 },
      });
      expect(other.status).toBe(403);
      expect(owner.status).toBe(200);
      expect(byEditor.status).toBe(200);
    });
  });

  describe(`updating (POST / PUT / PATCH ${path}/{id})`, () => {
    it('changes only the fields sent, with any of the three methods', async () => {
      const rec = await create('Partial Target', { description: 'keep me', ...extra });

      const viaPatch = await api.patch(`${path}/${rec.id}`, { [one]: 'Renamed Target' }, { token: editor });
      const viaPost = await api.post(`${path}/${rec.id}`, { description: 'changed' }, { token: editor });
      const viaPut = await api.put(`${path}/${rec.id}`, {}, { token: editor });

      expect(viaPatch.status).toBe(200);
      expect(viaPatch.body).toMatchObject({
        [one]: 'Renamed Target',
        description: 'keep me',
        slug: 'partial-target',
        ...extra,
      });
      expect(viaPost.body).toMatchObject({ [one]: 'Renamed Target', description: 'changed', ...extra });
      expect(viaPut.body).toEqual({
        ...viaPost.body,
        modified: viaPut.body.modified,
        modified_utc: viaPut.body.modified_utc,
      });
      expect(viaPut.body).not.toHaveProperty('json_ld');
    });

    it('clears optional fields sent as "" or null: their keys disappear', async () => {
      const rec = await create('Clearable', {
        description: 'text',
        website: 'https://x.example.com',
        ...extra,
      });
      const [field] = Object.keys(extra);

      const res = await api.patch(
        `${path}/${rec.id}`,
        { description: '', website: null, [field!]: '' },
        { token: editor },
      );

      expect(res.status).toBe(200);
      expect(res.body).not.toHaveProperty('description');
      expect(res.body).not.toHaveProperty('website');
      expect(res.body).not.toHaveProperty(field!);
    });

    it.each([
      ['an empty name', { NAME: '' }],
      ['a null name', { NAME: null }],
      ['a bad website', { website: 'nope' }],
      ['an unknown status', { status: 'gone' }],
      ['a bad date', { date: 'someday maybe' }],
    ])('rejects %s with 400 and leaves the record unchanged', async (_label, fields) => {
      const rec = await create('Unchanged', { website: 'https://keep.example.com' });
      const body: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(fields)) body[k === 'NAME' ? one : k] = v;

      const res = await api.patch(`${path}/${rec.id}`, body, { token: editor });

      expect(res.status).toBe(400);
      expect(res.body.code).toBe('rest_invalid_param');
      expect((await api.get(`${path}/${rec.id}`)).body).toEqual({ ...rec, json_ld: expect.any(Object) });
    });

    it('answers 404 for an unknown ID or slug', async () => {
      const byId = await api.patch(`${path}/777777`, { description: 'x' }, { token: editor });
      const bySlug = await api.patch(`${path}/by-slug/ghost`, { slug: 'ghost' }, { token: editor });

      expect(byId.status).toBe(404);
      expect(byId.body.message).toBe(`${Label} with ID 777777 does not exist.`);
      expect(bySlug.status).toBe(404);
      expect(bySlug.body.message).toBe(`${Label} with slug "ghost" does not exist.`);
    });

    it('answers 401 to anonymous callers before looking at the ID', async () => {
      const res = await api.patch(`${path}/777777`, { description: 'x' });

      expect(res.status).toBe(401);
    });

    it('by slug updates without slug in the body: the path names the record (decisions §6)', async () => {
      const rec = await create('Slug Required');

      const res = await api.patch(`${path}/by-slug/${rec.slug}`, { description: 'x' }, { token: editor });

      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: rec.id, slug: rec.slug, description: 'x' });
    });

    it('by slug updates with the current slug, and renames with a new one', async () => {
      const rec = await create('Slug Updated');

      const kept = await api.put(
        `${path}/by-slug/slug-updated`,
        { slug: 'slug-updated', description: 'one' },
        { token: editor },
      );
      const renamed = await api.post(
        `${path}/by-slug/slug-updated`,
        { slug: 'Slug Moved' },
        { token: editor },
      );

      expect(kept.body).toMatchObject({ id: rec.id, slug: 'slug-updated', description: 'one' });
      expect(renamed.body).toMatchObject({
        id: rec.id,
        slug: 'slug-moved',
        url: `http://calendar.test/${one}/slug-moved/`,
      });
      expect((await api.get(`${path}/by-slug/slug-updated`)).status).toBe(404);
      expect((await api.get(`${path}/by-slug/slug-moved`)).body.id).toBe(rec.id);
    });

    it('ignores slug where the contract does not declare it (create, update by ID)', async () => {
      const rec = await create('Slug From Name', { slug: 'chosen' });

      const res = await api.patch(`${path}/${rec.id}`, { slug: 'other' }, { token: editor });

      expect(rec.slug).toBe('slug-from-name');
      expect(res.body.slug).toBe('slug-from-name');
    });

    it('refuses a rename onto a taken slug with a 400 naming slug, changing nothing (issue 8)', async () => {
      await create('Taken Slug');
      const rec = await create('Mover');

      const res = await api.patch(`${path}/by-slug/${rec.slug}`, { slug: 'taken-slug' }, { token: editor });

      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 'rest_invalid_param',
        data: { status: 400, details: { slug: { code: 'rest_slug_taken' } } },
      });
      expect((await api.get(`${path}/${rec.id}`, { token: editor })).body.slug).toBe(rec.slug);
    });

    it('lets contributors edit their own unpublished records only', async () => {
      const own = await create('Contributor Own', {}, contributor);
      const editors = await create('Editors Own');

      const ownEdit = await api.patch(`${path}/${own.id}`, { description: 'mine' }, { token: contributor });
      const othersEdit = await api.patch(
        `${path}/${editors.id}`,
        { description: 'theirs' },
        { token: contributor },
      );
      await api.patch(`${path}/${own.id}`, { status: 'publish' }, { token: editor });
      const afterPublish = await api.patch(
        `${path}/${own.id}`,
        { description: 'again' },
        { token: contributor },
      );

      expect(ownEdit.status).toBe(200);
      expect(othersEdit.status).toBe(403);
      expect(othersEdit.body.code).toBe('rest_forbidden');
      expect(afterPublish.status).toBe(403);
    });

    it('turns a contributor’s publish into pending on update', async () => {
      const own = await create('Wants Out', {}, contributor);

      const res = await api.patch(`${path}/${own.id}`, { status: 'publish' }, { token: contributor });

      expect(res.body.status).toBe('pending');
    });

    it('lets authors edit their own published records but not others’; editors edit all', async () => {
      const own = await create('Author Own', {}, author);
      const foreign = await create('Not The Author’s');

      const ownEdit = await api.patch(`${path}/${own.id}`, { description: 'fine' }, { token: author });
      const foreignEdit = await api.patch(`${path}/${foreign.id}`, { description: 'no' }, { token: author });
      const editorEdit = await api.patch(`${path}/${own.id}`, { description: 'editor' }, { token: editor });

      expect(ownEdit.status).toBe(200);
      expect(foreignEdit.status).toBe(403);
      expect(editorEdit.status).toBe(200);
    });

    it('validates before it authorizes: a bad body on someone else’s record is a 400', async () => {
      const foreign = await create('Validated First');

      const res = await api.patch(`${path}/${foreign.id}`, { website: 'nope' }, { token: contributor });

      expect(res.status).toBe(400);
    });
  });

  describe(`DELETE ${path}/{id}`, () => {
    it('moves to the trash (200 with the trashed record), then answers 410', async () => {
      const rec = await create('Trash Me', extra);

      const first = await api.del(`${path}/${rec.id}`, { token: editor });
      const second = await api.del(`${path}/${rec.id}`, { token: editor });

      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ id: rec.id, status: 'trash', slug: 'trash-me', ...extra });
      expect(first.body).not.toHaveProperty('json_ld');
      expect(second.status).toBe(410);
      expect(second.body).toEqual({
        code: `${one}-is-in-trash`,
        message: `The ${one} is already trashed`,
        data: { status: 410 },
      });
    });

    it('hides a trashed record from visitors (403 no-longer-available) and lists, not from editors', async () => {
      const rec = await create('Trashed Read');
      await api.del(`${path}/${rec.id}`, { token: editor });

      const anonymous = await api.get(`${path}/${rec.id}`);
      const byEditor = await api.get(`${path}/${rec.id}`, { token: editor });
      const defaultList = await api.get(`${path}?search=Trashed Read`, { token: editor });
      const trashList = await api.get(`${path}?status=trash&search=Trashed Read`, { token: editor });

      expect(anonymous.status).toBe(403);
      expect(anonymous.body).toEqual({
        code: `${one}-no-longer-available`,
        message: `This ${one} is no longer available`,
        data: { status: 403 },
      });
      expect(byEditor.body.status).toBe('trash');
      expect(defaultList.body.total).toBe(0);
      expect(trashList.body[collection].map((r: { id: number }) => r.id)).toEqual([rec.id]);
    });

    it('restores from the trash through status, keeping the slug', async () => {
      const rec = await create('Comes Back');
      await api.del(`${path}/${rec.id}`, { token: editor });

      const res = await api.patch(`${path}/${rec.id}`, { status: 'publish' }, { token: editor });

      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'publish', slug: 'comes-back' });
      expect((await api.get(`${path}/by-slug/comes-back`)).status).toBe(200);
    });

    it('keeps a trashed record’s slug taken', async () => {
      await api.del(`${path}/${(await create('Slug Held')).id}`, { token: editor });

      const again = await create('Slug Held');

      expect(again.slug).toBe('slug-held-2');
    });

    it('deletes permanently with force=true (editors), also from the trash, freeing the slug', async () => {
      const live = await create('Gone For Good');
      const trashed = await create('Gone From Trash');
      await api.del(`${path}/${trashed.id}`, { token: editor });

      const forced = await api.del(`${path}/${live.id}?force=true`, { token: editor });
      const fromTrash = await api.del(`${path}/by-slug/gone-from-trash?force=1`, { token: editor });

      expect(forced.status).toBe(200);
      expect(forced.body).toMatchObject({ id: live.id, status: 'publish' });
      expect(fromTrash.status).toBe(200);
      expect((await api.get(`${path}/${live.id}`, { token: editor })).status).toBe(404);
      expect((await api.get(`${path}/${trashed.id}`, { token: editor })).status).toBe(404);
      expect((await create('Gone For Good')).slug).toBe('gone-for-good');
    });

    it('refuses force to contributors and authors (403), and deleting to subscribers', async () => {
      const own = await create('Contributor Force', {}, contributor);
      const authors = await create('Author Force', {}, author);

      const byContributor = await api.del(`${path}/${own.id}?force=true`, { token: contributor });
      const byAuthor = await api.del(`${path}/${authors.id}?force=true`, { token: author });
      const bySubscriber = await api.del(`${path}/${own.id}`, { token: subscriber });

      expect(byContributor.status).toBe(403);
      expect(byAuthor.status).toBe(403);
      expect(bySubscriber.status).toBe(403);
      expect((await api.get(`${path}/${own.id}`, { token: editor })).body.status).toBe('draft');
    });

    it('lets contributors trash their own drafts but not others’ records', async () => {
      const own = await create('Own Draft Bin', {}, contributor);
      const foreign = await create('Foreign Bin');

      expect((await api.del(`${path}/${own.id}`, { token: contributor })).status).toBe(200);
      expect((await api.del(`${path}/${foreign.id}`, { token: contributor })).status).toBe(403);
      expect((await api.get(`${path}/${foreign.id}`)).body.status).toBe('publish');
    });

    it('trashes by slug', async () => {
      const rec = await create('Slug Bin');

      const res = await api.del(`${path}/by-slug/slug-bin`, { token: editor });

      expect(res.body).toMatchObject({ id: rec.id, status: 'trash' });
    });

    it('answers 401 to anonymous callers and 404 for unknown IDs and slugs', async () => {
      expect((await api.del(`${path}/999998`)).status).toBe(401);
      expect((await api.del(`${path}/999998`, { token: editor })).body.code).toBe(`rest-${one}-not-found`);
      expect((await api.del(`${path}/by-slug/never-was`, { token: editor })).status).toBe(404);
    });

    it('rejects a non-boolean force', async () => {
      const rec = await create('Forceful');

      const res = await api.del(`${path}/${rec.id}?force=maybe`, { token: editor });

      expect(res.status).toBe(400);
      expect(res.body.data.params).toHaveProperty('force');
    });
  });

  describe(`GET ${path}`, () => {
    const word = `pagingword${one}`;
    let created: Array<{ id: number }> = [];

    beforeAll(async () => {
      created = [];
      for (let i = 1; i <= 5; i++) created.push(await create(`${word} ${i}`));
    });

    it('pages newest first with the envelope, totals headers and Link', async () => {
      const ids = created.map((r) => r.id).reverse();

      const p1 = await api.get(`${path}?search=${word}&per_page=2`);
      const p2 = await api.get(`${path}?search=${word}&per_page=2&page=2`);
      const p3 = await api.get(`${path}?search=${word}&per_page=2&page=3`);

      expect(Object.keys(p1.body)).toEqual([collection, 'rest_url', 'next_rest_url', 'total', 'total_pages']);
      expect(p1.body[collection].map((r: { id: number }) => r.id)).toEqual(ids.slice(0, 2));
      expect(p2.body[collection].map((r: { id: number }) => r.id)).toEqual(ids.slice(2, 4));
      expect(p3.body[collection].map((r: { id: number }) => r.id)).toEqual(ids.slice(4));
      expect(p1.body).toMatchObject({ total: 5, total_pages: 3 });
      expect(p1.headers.get('x-cal-total')).toBe('5');
      expect(p1.headers.get('x-cal-totalpages')).toBe('3');
      expect(p1.body.rest_url).toBe(`${api.base}${path}?search=${word}&per_page=2`);
      expect(p1.body.next_rest_url).toBe(`${api.base}${path}?search=${word}&per_page=2&page=2`);
      expect(p1.headers.get('link')).toBe(
        `<${api.base}${path}?search=${word}&per_page=2&page=2>; rel="next"`,
      );
      expect(p2.body.previous_rest_url).toBe(`${api.base}${path}?search=${word}&per_page=2`);
      expect(p2.headers.get('link')).toContain('rel="prev"');
      expect(p3.body).not.toHaveProperty('next_rest_url');
      expect(p3.body[collection][0]).not.toHaveProperty('json_ld');
    });

    it('answers 404 past the last page', async () => {
      const res = await api.get(`${path}?search=${word}&per_page=2&page=4`);

      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        code: `${one}-archive-page-not-found`,
        message: `The requested ${one} archive page does not exist`,
        data: { status: 404 },
      });
    });

    it('answers an empty first page with 200, [] and zero totals', async () => {
      const res = await api.get(`${path}?search=zzznothingmatches`);

      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        [collection]: [],
        rest_url: `${api.base}${path}?search=zzznothingmatches`,
        total: 0,
        total_pages: 0,
      });
      expect(res.headers.get('x-cal-total')).toBe('0');
      expect(res.headers.get('link')).toBeNull();
    });

    it('lists every published record newest first, totals from the status counts', async () => {
      const all = await api.get(`${path}?per_page=50`);
      const page2 = await api.get(`${path}?per_page=3&page=2`);

      const items: Array<{ id: number; date_utc: string }> = all.body[collection];
      const ids = items.map((r) => r.id);
      const newestFirst = [...items].sort((a, b) => b.date_utc.localeCompare(a.date_utc) || b.id - a.id);
      expect(all.body.total).toBe(items.length);
      expect(ids).toEqual(newestFirst.map((r) => r.id));
      expect(ids.indexOf(created[4]!.id)).toBeLessThan(ids.indexOf(created[0]!.id));
      expect(all.body[collection].every((r: { status: string }) => r.status === 'publish')).toBe(true);
      expect(page2.body[collection].map((r: { id: number }) => r.id)).toEqual(ids.slice(3, 6));
      expect(page2.body.total).toBe(all.body.total);
    });

    it('caps per_page at 50 and refuses non-positive or non-integer paging', async () => {
      const capped = await api.get(`${path}?per_page=100`);

      expect(capped.status).toBe(200);
      expect(capped.body.total_pages).toBe(Math.ceil(capped.body.total / 50));
      for (const q of ['page=0', 'page=-1', 'per_page=0', 'per_page=abc', 'page=1.5']) {
        const res = await api.get(`${path}?${q}`);
        expect(res.status, q).toBe(400);
        expect(res.body.code).toBe('rest_invalid_param');
      }
    });

    it('shows visitors published records only; editors every status but trash', async () => {
      const draft = await create(`${word} draft`, { status: 'draft' });

      const anonymous = await api.get(`${path}?search=${word}&per_page=50`);
      const byEditor = await api.get(`${path}?search=${word}&per_page=50`, { token: editor });

      expect(anonymous.body.total).toBe(5);
      expect(byEditor.body.total).toBe(6);
      expect(byEditor.body[collection][0].id).toBe(draft.id);
    });

    it('shows contributors their own unpublished records, not other people’s', async () => {
      const mine = await create(`${word} mine`, {}, contributor);
      await create(`${word} theirs`, {}, otherContributor);

      const res = await api.get(`${path}?search=${word}&per_page=50`, { token: contributor });

      const names = res.body[collection].map((r: Record<string, string>) => r[one]);
      expect(names).toContain(mine[one]);
      expect(names).not.toContain(`${word} theirs`);
      expect(res.body.total).toBe(res.body[collection].length);
    });

    it('filters by status for editors (array or CSV) and refuses other statuses to visitors', async () => {
      const drafts = await api.get(`${path}?status=draft&search=${word}`, { token: editor });
      const both = await api.get(`${path}?status=publish, draft&search=${word}&per_page=50`, {
        token: editor,
      });
      const asArray = await api.get(`${path}?status[]=publish&status[]=draft&search=${word}&per_page=50`, {
        token: editor,
      });
      const visitorDraft = await api.get(`${path}?status=draft`);
      const visitorPublish = await api.get(`${path}?status=publish&search=${word}`);
      const unknown = await api.get(`${path}?status=foo`, { token: editor });
      const any = await api.get(`${path}?status=any`, { token: editor });

      expect(drafts.body[collection].every((r: { status: string }) => r.status === 'draft')).toBe(true);
      expect(drafts.body.total).toBeGreaterThan(0);
      expect(both.body.total).toBe(asArray.body.total);
      expect(both.body.total).toBe(drafts.body.total + 5);
      expect(visitorDraft.status).toBe(400);
      expect(visitorDraft.body.data.params).toHaveProperty('status');
      expect(visitorPublish.body.total).toBe(5);
      expect(unknown.status).toBe(400);
      expect(any.status).toBe(400);
    });

    it('sums the requested statuses for the unfiltered total', async () => {
      const publish = await api.get(`${path}?status=publish&per_page=1`, { token: editor });
      const drafts = await api.get(`${path}?status=draft&per_page=1`, { token: editor });
      const both = await api.get(`${path}?status=publish,draft&per_page=1`, { token: editor });

      expect(both.body.total).toBe(publish.body.total + drafts.body.total);
    });

    it.each([
      ['has_events=yes', 'has_events'],
      ['has_events=', 'has_events'],
      ['only_with_upcoming=maybe', 'only_with_upcoming'],
      ['event=abc', 'event'],
      ['event=0', 'event'],
      ['event=999999', 'event'],
      ['search=', 'search'],
    ])('rejects %s with 400 naming the parameter', async (query, param) => {
      const res = await api.get(`${path}?${query}`);

      expect(res.status).toBe(400);
      expect(res.body.code).toBe('rest_invalid_param');
      expect(res.body.data.params).toHaveProperty(param);
    });

    it('accepts the boolean spellings of has_events and only_with_upcoming', async () => {
      for (const q of [
        'has_events=true',
        'has_events=0',
        'only_with_upcoming=1',
        'only_with_upcoming=false',
      ]) {
        expect((await api.get(`${path}?${q}`)).status, q).toBe(200);
      }
    });

    it(`refuses a ${otherOne} ID or a draft event the caller cannot see as event`, async () => {
      const theirs = await api.post(`/${other}`, { [otherOne]: 'Not An Event' }, { token: editor });
      const draftEvent = await api.post(
        '/events',
        {
          title: 'Hidden Plan',
          start_date: '2031-01-01 10:00',
          end_date: '2031-01-01 11:00',
          status: 'draft',
        },
        { token: editor },
      );

      const wrongType = await api.get(`${path}?event=${theirs.body.id}`);
      const invisible = await api.get(`${path}?event=${draftEvent.body.id}`);
      const visible = await api.get(`${path}?event=${draftEvent.body.id}`, { token: editor });

      expect(wrongType.status).toBe(400);
      expect(wrongType.body.data.params).toHaveProperty('event');
      expect(invisible.status).toBe(400);
      expect(visible.status).toBe(200);
    });
  });

  describe('links to events', () => {
    const field = one;
    const event = async (title: string, ids: number[], fields: Record<string, unknown> = {}) => {
      const res = await api.post(
        '/events',
        { title, start_date: '2031-03-01 10:00', end_date: '2031-03-01 12:00', [field]: ids, ...fields },
        { token: editor },
      );
      expect(res.status).toBe(201);
      return res.body;
    };
    const idsOf = (res: { body: Record<string, Array<{ id: number }>> }) =>
      res.body[collection]!.map((r) => r.id);

    it('lists the records of an event, and filters by has_events and only_with_upcoming', async () => {
      const linked = await create('Linked One');
      const idle = await create('Idle One');
      const ev = await event('Linking Event', [linked.id]);

      const ofEvent = await api.get(`${path}?event=${ev.id}`);
      const withEvents = await api.get(`${path}?has_events=true&per_page=50`);
      const without = await api.get(`${path}?has_events=false&per_page=50`);
      const upcoming = await api.get(`${path}?only_with_upcoming=true&per_page=50`);

      expect(idsOf(ofEvent)).toEqual([linked.id]);
      expect(idsOf(withEvents)).toContain(linked.id);
      expect(idsOf(withEvents)).not.toContain(idle.id);
      expect(idsOf(without)).toContain(idle.id);
      expect(idsOf(without)).not.toContain(linked.id);
      expect(idsOf(upcoming)).toContain(linked.id);
      expect(idsOf(upcoming)).not.toContain(idle.id);
    });

    it('hides a trashed record from visitors but keeps its links, and restoring brings them back (decisions §6)', async () => {
      const rec = await create('Unlinked On Trash');
      const keep = await create('Stays Linked');
      const ev = await event('Loses A Link', [rec.id, keep.id]);

      const res = await api.del(`${path}/${rec.id}`, { token: editor });

      expect(res.status).toBe(200);
      const after = await api.get(`/events/${ev.id}`);
      const embedded = one === 'venue' ? [after.body.venue].flat() : after.body.organizer;
      expect(embedded.map((r: { id: number }) => r.id)).toEqual([keep.id]);
      expect(idsOf(await api.get(`${path}?event=${ev.id}`))).toEqual([keep.id]);
      const restored = await api.patch(`${path}/${rec.id}`, { status: 'publish' }, { token: editor });
      expect(restored.status).toBe(200);
      expect(idsOf(await api.get(`${path}?has_events=false&per_page=50`))).not.toContain(rec.id);
      expect(idsOf(await api.get(`${path}?has_events=true&per_page=50`))).toContain(rec.id);
      expect(idsOf(await api.get(`${path}?event=${ev.id}`)).sort()).toEqual([rec.id, keep.id].sort());
      const back = await api.get(`/events/${ev.id}`);
      const relinked = one === 'venue' ? [back.body.venue].flat() : back.body.organizer;
      expect(relinked.map((r: { id: number }) => r.id).sort()).toEqual([rec.id, keep.id].sort());
    });

    it('unlinks a permanently deleted record from its events', async () => {
      const rec = await create('Unlinked On Delete');
      const ev = await event('Loses Its Only Link', [rec.id]);

      const res = await api.del(`${path}/${rec.id}?force=true`, { token: editor });

      expect(res.status).toBe(200);
      expect(idsOf(await api.get(`${path}?event=${ev.id}`))).toEqual([]);
      const after = await api.get(`/events/${ev.id}`);
      expect(one === 'venue' ? after.body.venue : after.body.organizer).toEqual([]);
    });

    it('hides a draft record linked to an event from visitors in the event filter', async () => {
      const draft = await create('Draft Linked', { status: 'draft' });
      const ev = await event('Has A Draft Link', [draft.id]);

      expect(idsOf(await api.get(`${path}?event=${ev.id}`))).toEqual([]);
      expect(idsOf(await api.get(`${path}?event=${ev.id}`, { token: editor }))).toEqual([draft.id]);
    });
  });
});
