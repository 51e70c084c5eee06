import { describe, expect, it } from 'vitest';
import { useStack } from '../support/use-stack';

/** Organizer-only behaviour: its fields, e-mail checks, JSON-LD and search. */
const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

const create = async (body: Record<string, unknown>) => {
  const res = await api.post('/organizers', body, { token: editor });
  expect(res.status).toBe(201);
  return res.body;
};

const JAZZ_SOCIETY = {
  organizer: 'Jazz Society',
  description: 'Promoting live jazz since 1990.',
  phone: '+1 555 0100',
  website: 'https://jazzsociety.example.com',
  email: 'info@jazzsociety.example.com',
};

describe('organizer representation', () => {
  it('has the reference keys in the reference order (sample 017)', async () => {
    const o = await create(JAZZ_SOCIETY);

    expect(Object.keys(o)).toEqual([
      'id',
      'author',
      'status',
      'date',
      'date_utc',
      'modified',
      'modified_utc',
      'url',
      'organizer',
      'description',
      'slug',
      'phone',
      'website',
      'email',
      'global_id',
      'global_id_lineage',
    ]);
    expect(o).toMatchObject({ ...JAZZ_SOCIETY, url: 'http://calendar.test/organizer/jazz-society/' });
    expect(o).not.toHaveProperty('show_map');
  });

  it('adds json_ld (a schema.org Person, plain e-mail) before global_id on single reads (sample 133)', async () => {
    const o = await create({ ...JAZZ_SOCIETY, organizer: 'Jazz Society Two' });

    const res = await api.get(`/organizers/by-slug/${o.slug}`);

    const keys = Object.keys(res.body);
    expect(keys.slice(keys.indexOf('email'))).toEqual(['email', 'json_ld', 'global_id', 'global_id_lineage']);
    expect(res.body.json_ld).toEqual({
      '@type': 'Person',
      name: 'Jazz Society Two',
      description: 'Promoting live jazz since 1990.',
      url: 'https://jazzsociety.example.com',
      telephone: '+1 555 0100',
      email: 'info@jazzsociety.example.com',
      sameAs: 'https://jazzsociety.example.com',
    });
  });

  it('keeps a name-only organizer down to the always-present keys (sample 019)', async () => {
    const o = await create({ organizer: 'Lonely Organizer' });

    expect(Object.keys(o)).toEqual([
      'id',
      'author',
      'status',
      'date',
      'date_utc',
      'modified',
      'modified_utc',
      'url',
      'organizer',
      'slug',
      'global_id',
      'global_id_lineage',
    ]);
  });
});

describe('organizer e-mail', () => {
  it.each([
    'not-an-email',
    'a@b',
    'two@@example.com',
    'spaced out@example.com',
    'ü@exä mple.com',
    'snow☃man@example.com',
    'ü@',
  ])('refuses %s with 400 (the reference does not check; decisions §8 do)', async (email) => {
    const before = (await api.get('/organizers?per_page=1')).body.total;

    const res = await api.post('/organizers', { organizer: 'Bad Email Org', email }, { token: editor });

    expect(res.status).toBe(400);
    expect(res.body.data.params).toEqual({ email: 'email must be an e-mail address.' });
    expect((await api.get('/organizers?per_page=1')).body.total).toBe(before);
  });

  // Issue 39, decisions §9 (RFC 6531): the reference takes them, this service refused them.
  it.each(['ÜNICODE@exämple.com', 'josé@example.com', 'user@例え.jp', '用户@例子.广告'])(
    'takes the internationalized address %s and reads it back as written',
    async (email) => {
      const o = await create({ organizer: 'Intl Mail', email });
      const single = await api.get(`/organizers/${o.id}`);

      expect([o.email, single.body.email]).toEqual([email, email]);
    },
  );

  it('is cleared by "", and a bad one on update leaves the organizer unchanged', async () => {
    const o = await create({ organizer: 'Mail Changer', email: 'old@example.com' });

    const bad = await api.patch(`/organizers/${o.id}`, { email: 'nope', phone: '123' }, { token: editor });
    const unchanged = await api.get(`/organizers/${o.id}`);
    const cleared = await api.patch(`/organizers/${o.id}`, { email: '' }, { token: editor });

    expect(bad.status).toBe(400);
    expect(unchanged.body).toMatchObject({ email: 'old@example.com' });
    expect(unchanged.body).not.toHaveProperty('phone');
    expect(cleared.body).not.toHaveProperty('email');
  });
});

describe('partial updates of organizer fields', () => {
  it('changes phone and website only, keeping the rest (sample 203)', async () => {
    const o = await create({
      organizer: 'City Council',
      email: 'council@example.com',
      description: 'Town hall',
    });

    const res = await api.patch(
      `/organizers/${o.id}`,
      { phone: '+49 30 1234', website: 'https://council.example.com' },
      { token: editor },
    );

    expect(res.body).toMatchObject({
      organizer: 'City Council',
      description: 'Town hall',
      phone: '+49 30 1234',
      website: 'https://council.example.com',
      email: 'council@example.com',
    });
  });
});

describe('GET /organizers?search=', () => {
  const ids = (res: { body: { organizers: Array<{ id: number }> } }) => res.body.organizers.map((o) => o.id);

  it('looks into e-mail, phone, website, name and description (reference §7.1)', async () => {
    const a = await create({ organizer: 'Alpha Org', email: 'alpha@common.com', phone: '1111 22' });
    const b = await create({
      organizer: 'Beta Org',
      email: 'beta@common.com',
      website: 'https://beta-site.example.org',
    });
    const c = await create({
      organizer: 'Gamma Org',
      description: 'Runs the harbour festival',
      phone: '33 1111',
    });

    expect(ids(await api.get('/organizers?search=@common.com')).sort()).toEqual([a.id, b.id].sort());
    expect(ids(await api.get('/organizers?search=1111')).sort()).toEqual([a.id, c.id].sort());
    expect(ids(await api.get('/organizers?search=beta-site'))).toEqual([b.id]);
    expect(ids(await api.get('/organizers?search=harbour festival'))).toEqual([c.id]);
    expect(ids(await api.get('/organizers?search=gamma'))).toEqual([c.id]);
  });
});

describe('inline organizers in event bodies', () => {
  it('creates and reuses organizers given inline, naming organizer[i] in errors', async () => {
    const known = await create({ organizer: 'Known Org' });
    const body = (organizer: unknown) => ({
      title: 'Org Host',
      start_date: '2031-06-01 18:00',
      end_date: '2031-06-01 20:00',
      organizer,
    });

    const first = await api.post(
      '/events',
      body([known.id, { organizer: 'Inline Org', email: 'in@example.com' }]),
      { token: editor },
    );
    const again = await api.post('/events', body([{ organizer: 'Inline Org', email: 'in@example.com' }]), {
      token: editor,
    });
    const bad = await api.post('/events', body([known.id, { organizer: 'Inline Bad', email: 'bad' }]), {
      token: editor,
    });

    expect(first.status).toBe(201);
    expect(first.body.organizer.map((o: { organizer: string }) => o.organizer)).toEqual([
      'Known Org',
      'Inline Org',
    ]);
    expect(again.body.organizer[0].id).toBe(first.body.organizer[1].id);
    expect(bad.status).toBe(400);
    expect(bad.body.data.params).toEqual({ organizer: 'organizer[1].email must be an e-mail address.' });
  });
});
