import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useStack } from '../support/use-stack';
import { type Rec } from '../support/bodies';

/**
 * Events and their venues and organizers: links by ID, {id} or inline object, the embedded
 * representation (reference §3.1–3.3), visibility of linked records, the venue / organizer / geoloc
 * filters of GET /events, and the event facts of the venue and organizer lists (has_events,
 * only_with_upcoming, event), which change in the same write as the event. Clock fixed at the
 * reference capture time.
 */
const NOW = new Date('2026-11-22T11:49:00Z');
const WHEN = { start_date: '2027-08-10 18:00:00', end_date: '2027-08-10 21:00:00' };

const {
  api,
  tokens: { editor },
} = await useStack({ now: NOW, tokens: { editor: 'editor' } });

const v: Record<string, Rec> = {};
const o: Record<string, Rec> = {};

const venue = async (body: Rec) => {
  const res = await api.post('/venues', body, { token: editor });
  expect(res.status).toBe(201);
  return res.body as Rec;
};
const organizer = async (body: Rec) => {
  const res = await api.post('/organizers', body, { token: editor });
  expect(res.status).toBe(201);
  return res.body as Rec;
};
const create = async (body: Rec, token = editor) => {
  const res = await api.post('/events', { ...WHEN, ...body }, { token });
  expect(res.status).toBe(201);
  return res.body as Rec;
};
const forceDelete = async (id: number) =>
  expect((await api.del(`/events/${id}?force=true`, { token: editor })).status).toBe(200);
const titles = (res: { body: { events: Array<{ title: string }> } }) => res.body.events.map((e) => e.title);
const ids = (res: { body: Record<string, Array<{ id: number }>> }, key: string) =>
  res.body[key]!.map((r) => r.id);
const storedEvents = async () =>
  (
    await api.get(
      '/events?status=publish,future,draft,pending,private,trash&start_date=1970-01-02&end_date=2100-01-01&per_page=1',
      { token: editor },
    )
  ).body.total as number;
const storedVenues = async () =>
  (await api.get('/venues?status=publish,future,draft,pending,private,trash&per_page=1', { token: editor }))
    .body.total as number;
const storedOrganizers = async () =>
  (
    await api.get('/organizers?status=publish,future,draft,pending,private,trash&per_page=1', {
      token: editor,
    })
  ).body.total as number;

beforeAll(async () => {
  v.hall = await venue({
    venue: 'Blue Note Hall',
    description: '<p>Legendary jazz club.</p>',
    address: '131 W 3rd St',
    city: 'New York',
    country: 'United States',
    state: 'NY',
    zip: '10012',
    phone: '+1 212-475-8592',
    website: 'https://bluenote.example.com',
  });
  v.park = await venue({ venue: 'City Park', city: 'Springfield' });
  v.paris = await venue({ venue: 'Paris Stage', city: 'Paris', geo_lat: 48.8566, geo_lng: 2.3522 });
  v.berlin = await venue({ venue: 'Berlin Stage', city: 'Berlin', geo_lat: 52.52, geo_lng: 13.405 });
  v.draft = await venue({ venue: 'Draft Venue', status: 'draft' });
  o.society = await organizer({
    organizer: 'Jazz Society',
    description: '<p>Promoting live jazz since 1990.</p>',
    phone: '+1 555 0100',
    website: 'https://jazzsociety.example.com',
    email: 'info@jazzsociety.example.com',
  });
  o.friends = await organizer({ organizer: 'Friends of Music' });
  o.draft = await organizer({ organizer: 'Draft Organizer', status: 'draft' });
});

describe('linking by ID and embedding (reference §3.1)', () => {
  it('embeds a venue given by ID as the venue’s own representation (sample 021)', async () => {
    const e = await create({ title: 'Jazz Night', venue: v.hall!.id });

    expect(e.venue).toEqual(v.hall);
  });

  it('takes a venue as an {id} object', async () => {
    const e = await create({ title: 'Venue By Object', venue: { id: v.park!.id } });

    expect(e.venue.id).toBe(v.park!.id);
  });

  it('shows no venue as []', async () => {
    const e = await create({ title: 'Nowhere In Particular' });

    expect(e.venue).toEqual([]);
  });

  it('shows several venues as an array, in the order given', async () => {
    const e = await create({ title: 'Two Stages', venue: [v.park!.id, v.hall!.id] });

    expect(Array.isArray(e.venue)).toBe(true);
    expect(e.venue.map((x: Rec) => x.id)).toEqual([v.park!.id, v.hall!.id]);
  });

  it('always shows organizers as an array of their representations (sample 022)', async () => {
    const e = await create({ title: 'One Organizer', organizer: o.society!.id });

    expect(e.organizer).toEqual([o.society]);
  });

  it('keeps the organizers in the order given, as CSV or as a mix of IDs and {id} (sample 027)', async () => {
    const csv = await create({ title: 'Two Organizers CSV', organizer: `${o.friends!.id},${o.society!.id}` });
    const mixed = await create({
      title: 'Two Organizers Mixed',
      organizer: [{ id: o.society!.id }, o.friends!.id],
    });

    expect(csv.organizer.map((x: Rec) => x.id)).toEqual([o.friends!.id, o.society!.id]);
    expect(mixed.organizer.map((x: Rec) => x.id)).toEqual([o.society!.id, o.friends!.id]);
  });

  it('links a record given twice once', async () => {
    const e = await create({ title: 'Twice Linked', organizer: [o.society!.id, { id: o.society!.id }] });

    expect(e.organizer).toHaveLength(1);
  });

  it('adds json_ld to the embedded venue and organizers on single GETs only', async () => {
    const e = await create({ title: 'Embedded LD', venue: v.hall!.id, organizer: [o.society!.id] });

    const single = await api.get(`/events/${e.id}`);
    const listed = await api.get(`/events?include=${e.id}`);

    expect(single.body.venue.json_ld).toMatchObject({ '@type': 'Place', name: 'Blue Note Hall' });
    expect(single.body.organizer[0].json_ld).toMatchObject({ '@type': 'Person', name: 'Jazz Society' });
    expect(listed.body.events[0].venue).not.toHaveProperty('json_ld');
    expect(listed.body.events[0].organizer[0]).not.toHaveProperty('json_ld');
    expect(e.venue).not.toHaveProperty('json_ld');
  });

  it('names the venue and organizer in the event’s json_ld (sample 101)', async () => {
    const e = await create({ title: 'LD Location', venue: v.hall!.id, organizer: [o.society!.id] });

    const ld = (await api.get(`/events/${e.id}`)).body.json_ld;

    expect(ld.location).toMatchObject({
      '@type': 'Place',
      name: 'Blue Note Hall',
      address: expect.objectContaining({
        '@type': 'PostalAddress',
        streetAddress: '131 W 3rd St',
        addressLocality: 'New York',
      }),
    });
    expect(ld.organizer).toMatchObject({ '@type': 'Person', name: 'Jazz Society' });
  });

  it('shows anonymous callers only published linked records; editors see all', async () => {
    const e = await create({
      title: 'Mixed Visibility',
      venue: v.draft!.id,
      organizer: [o.draft!.id, o.society!.id],
    });

    const asVisitor = await api.get(`/events/${e.id}`);
    const asEditor = await api.get(`/events/${e.id}`, { token: editor });

    expect(asVisitor.body.venue).toEqual([]);
    expect(asVisitor.body.organizer.map((x: Rec) => x.id)).toEqual([o.society!.id]);
    expect(asEditor.body.venue.id).toBe(v.draft!.id);
    expect(asEditor.body.organizer.map((x: Rec) => x.id)).toEqual([o.draft!.id, o.society!.id]);
  });

  it('hides unpublished linked records in lists too', async () => {
    const e = await create({
      title: 'Mixed Visibility Listed',
      venue: v.draft!.id,
      organizer: [o.draft!.id],
    });

    const res = await api.get(`/events?include=${e.id}`);

    expect(res.body.events[0]).toMatchObject({ venue: [], organizer: [] });
  });

  it('embeds the linked record as it is now, after it changes', async () => {
    const place = await venue({ venue: 'Renamed Later' });
    const e = await create({ title: 'Follows Renames', venue: place.id });

    await api.patch(`/venues/${place.id}`, { venue: 'Renamed Now', city: 'Lyon' }, { token: editor });

    expect((await api.get(`/events/${e.id}`)).body.venue).toMatchObject({
      venue: 'Renamed Now',
      city: 'Lyon',
    });
  });
});

describe('inline venues and organizers (decisions §6)', () => {
  it('creates a venue and an organizer from inline objects, mixed with IDs (sample 166)', async () => {
    const e = await create({
      title: 'Inline Linked Posts',
      venue: { venue: 'Pop-up Loft', city: 'Paris', country: 'France' },
      organizer: [{ organizer: 'New Promoter', email: 'promo@example.com' }, o.society!.id],
    });

    expect(e.venue).toMatchObject({
      venue: 'Pop-up Loft',
      city: 'Paris',
      country: 'France',
      status: 'publish',
    });
    expect(e.organizer.map((x: Rec) => x.organizer)).toEqual(['New Promoter', 'Jazz Society']);
    expect((await api.get(`/venues/${e.venue.id}`)).body).toMatchObject({ venue: 'Pop-up Loft' });
    expect((await api.get(`/organizers/${e.organizer[0].id}`)).body).toMatchObject({
      email: 'promo@example.com',
    });
  });

  it('reuses an existing record whose name and given fields are equal', async () => {
    const first = await create({ title: 'Reuse One', venue: { venue: 'Reuse Hall', city: 'Lyon' } });

    const second = await create({ title: 'Reuse Two', venue: { venue: 'Reuse Hall', city: 'Lyon' } });

    expect(second.venue.id).toBe(first.venue.id);
  });

  it('creates a new record when a given field differs', async () => {
    const first = await create({ title: 'Differ One', organizer: [{ organizer: 'Differ Org', phone: '1' }] });

    const second = await create({
      title: 'Differ Two',
      organizer: [{ organizer: 'Differ Org', phone: '2' }],
    });

    expect(second.organizer[0].id).not.toBe(first.organizer[0].id);
  });

  it('counts the event for the inline record at once', async () => {
    const e = await create({ title: 'Inline Counted', venue: { venue: 'Inline Counted Hall' } });

    const res = await api.get('/venues?has_events=true&per_page=50&search=Inline Counted Hall');

    expect(ids(res, 'venues')).toEqual([e.venue.id]);
  });

  it('refuses an inline venue without a name with a 400 naming venue, creating nothing', async () => {
    const [events, venues] = [await storedEvents(), await storedVenues()];

    const res = await api.post(
      '/events',
      { title: 'Nameless Venue', ...WHEN, venue: { city: 'Paris' } },
      { token: editor },
    );

    expect(res.status).toBe(400);
    expect(res.body.data.params).toHaveProperty('venue');
    expect(res.body.data.params.venue).toContain('venue');
    expect([await storedEvents(), await storedVenues()]).toEqual([events, venues]);
  });

  it('refuses an inline organizer list with a nameless entry, creating none of them', async () => {
    const [events, organizers] = [await storedEvents(), await storedOrganizers()];

    const res = await api.post(
      '/events',
      {
        title: 'Nameless Organizer',
        ...WHEN,
        organizer: [{ organizer: 'Would Be Created' }, { website: 'http://x.example' }],
      },
      { token: editor },
    );

    expect(res.status).toBe(400);
    expect(res.body.data.params).toHaveProperty('organizer');
    expect([await storedEvents(), await storedOrganizers()]).toEqual([events, organizers]);
  });

  it('refuses an inline venue with a bad field, naming the field', async () => {
    const res = await api.post(
      '/events',
      { title: 'Bad Inline', ...WHEN, venue: { venue: 'Bad Site Hall', website: 'not a url' } },
      { token: editor },
    );

    expect(res.status).toBe(400);
    expect(res.body.data.params.venue).toContain('website');
  });

  it('creates no inline record for a caller who may not edit the event (403)', async () => {
    const author = await api.token('author', 'author-1');
    const e = await create({ title: 'Not The Author’s' });
    const venues = await storedVenues();

    const res = await api.patch(`/events/${e.id}`, { venue: { venue: 'Sneaky Hall' } }, { token: author });

    expect(res.status).toBe(403);
    expect(await storedVenues()).toBe(venues);
  });

  it('creates no inline record when an ID of the same request is unknown', async () => {
    const venues = await storedVenues();

    const res = await api.post(
      '/events',
      { title: 'Inline Then Unknown', ...WHEN, venue: [{ venue: 'Never Made Hall' }, 999999] },
      { token: editor },
    );

    expect(res.status).toBe(400);
    expect(await storedVenues()).toBe(venues);
  });
});

describe('invalid links', () => {
  it.each([
    ['an unknown venue ID (sample 163)', { venue: 999999 }, 'venue'],
    ['an unknown organizer ID (sample 164)', { organizer: [999999] }, 'organizer'],
    ['an organizer ID as venue', () => ({ venue: o.society!.id }), 'venue'],
    ['a venue ID as organizer', () => ({ organizer: v.hall!.id }), 'organizer'],
    ['a word as venue', { venue: 'somewhere' }, 'venue'],
    ['an {id} that is not a number', { venue: { id: 'x' } }, 'venue'],
  ])('refuses %s with a 400 naming it, creating nothing', async (_label, fields, param) => {
    const before = await storedEvents();

    const res = await api.post(
      '/events',
      { title: 'Bad Link', ...WHEN, ...(typeof fields === 'function' ? fields() : fields) },
      { token: editor },
    );

    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect(res.body.data.params).toHaveProperty(param);
    expect(await storedEvents()).toBe(before);
  });

  it('refuses a trashed venue', async () => {
    const gone = await venue({ venue: 'Trashed Hall' });
    await api.del(`/venues/${gone.id}`, { token: editor });

    const res = await api.post(
      '/events',
      { title: 'At A Trashed Hall', ...WHEN, venue: gone.id },
      { token: editor },
    );

    expect(res.status).toBe(400);
    expect(res.body.data.params).toHaveProperty('venue');
  });
});

describe('changing links on update (decisions §6)', () => {
  it('keeps venue and organizers when they are not sent (unlike reference §6.4)', async () => {
    const e = await create({ title: 'Keeps Links', venue: v.hall!.id, organizer: [o.society!.id] });

    const res = await api.patch(`/events/${e.id}`, { title: 'Keeps Links Renamed' }, { token: editor });

    expect(res.body.venue.id).toBe(v.hall!.id);
    expect(res.body.organizer.map((x: Rec) => x.id)).toEqual([o.society!.id]);
  });

  it('replaces the venue and the whole organizer list', async () => {
    const e = await create({
      title: 'Replaces Links',
      venue: v.hall!.id,
      organizer: [o.society!.id, o.friends!.id],
    });

    const res = await api.patch(
      `/events/${e.id}`,
      { venue: v.park!.id, organizer: [o.friends!.id] },
      { token: editor },
    );

    expect(res.body.venue.id).toBe(v.park!.id);
    expect(res.body.organizer.map((x: Rec) => x.id)).toEqual([o.friends!.id]);
  });

  it.each([
    ['""', ''],
    ['null', null],
    ['[]', []],
  ])('unlinks the venue sent as %s (the reference keeps it, sample 178)', async (_label, value) => {
    const e = await create({ title: 'Loses Venue', venue: v.hall!.id });

    const res = await api.patch(`/events/${e.id}`, { venue: value }, { token: editor });

    expect(res.body.venue).toEqual([]);
    expect(ids(await api.get(`/venues?event=${e.id}`), 'venues')).toEqual([]);
  });

  it('empties the organizers with []', async () => {
    const e = await create({ title: 'Loses Organizers', organizer: [o.society!.id] });

    const res = await api.patch(`/events/${e.id}`, { organizer: [] }, { token: editor });

    expect(res.body.organizer).toEqual([]);
  });
});

describe('venue and organizer filters of GET /events', () => {
  const made: number[] = [];
  const hall = () => v.filterHall!.id as number;
  const yard = () => v.filterYard!.id as number;
  const host = () => o.filterHost!.id as number;
  const guest = () => o.filterGuest!.id as number;

  beforeAll(async () => {
    v.filterHall = await venue({ venue: 'Filter Hall' });
    v.filterYard = await venue({ venue: 'Filter Yard' });
    o.filterHost = await organizer({ organizer: 'Filter Host' });
    o.filterGuest = await organizer({ organizer: 'Filter Guest' });
    const at = async (title: string, fields: Rec) =>
      made.push((await create({ title, description: 'filterword', ...fields })).id);
    await at('F1 hall host', {
      start_date: '2027-05-01 10:00',
      end_date: '2027-05-01 11:00',
      venue: hall(),
      organizer: [host()],
    });
    await at('F2 hall both', {
      start_date: '2027-05-02 10:00',
      end_date: '2027-05-02 11:00',
      venue: hall(),
      organizer: [host(), guest()],
      featured: true,
    });
    await at('F3 yard guest', {
      start_date: '2027-05-03 10:00',
      end_date: '2027-05-03 11:00',
      venue: yard(),
      organizer: [guest()],
    });
    await at('F4 yard none', { start_date: '2027-05-04 10:00', end_date: '2027-05-04 11:00', venue: yard() });
    await at('F5 hall draft', {
      start_date: '2027-05-05 10:00',
      end_date: '2027-05-05 11:00',
      venue: hall(),
      status: 'draft',
    });
    await at('F6 hall past', { start_date: '2025-05-05 10:00', end_date: '2025-05-05 11:00', venue: hall() });
  });
  afterAll(async () => {
    for (const id of made) await forceDelete(id);
  });

  it('filters by one venue, in the default window (sample 079)', async () => {
    const res = await api.get(`/events?venue=${hall()}`);

    expect(titles(res)).toEqual(['F1 hall host', 'F2 hall both']);
  });

  it('ORs two venues (sample 080)', async () => {
    const res = await api.get(`/events?venue=${hall()},${yard()}&start_date=2020-01-01`);

    expect(titles(res)).toEqual([
      'F6 hall past',
      'F1 hall host',
      'F2 hall both',
      'F3 yard guest',
      'F4 yard none',
    ]);
  });

  it('filters by one organizer (sample 082)', async () => {
    const res = await api.get(`/events?organizer=${host()}`);

    expect(titles(res)).toEqual(['F1 hall host', 'F2 hall both']);
  });

  it('lists an event with two of the organizers once (sample 083)', async () => {
    const res = await api.get(`/events?organizer=${host()},${guest()}`);

    expect(titles(res)).toEqual(['F1 hall host', 'F2 hall both', 'F3 yard guest']);
    expect(res.body.total).toBe(3);
  });

  it('ANDs venue and organizer (sample 085)', async () => {
    const none = await api.get(`/events?venue=${yard()}&organizer=${host()}`);
    const some = await api.get(`/events?venue=${hall()}&organizer=${guest()}`);

    expect(titles(none)).toEqual([]);
    expect(titles(some)).toEqual(['F2 hall both']);
  });

  it('combines a venue with featured and with search', async () => {
    expect(titles(await api.get(`/events?venue=${hall()}&featured=true`))).toEqual(['F2 hall both']);
    expect(titles(await api.get(`/events?venue=${yard()}&search=none`))).toEqual(['F4 yard none']);
  });

  it('shows editors the draft event at a venue', async () => {
    const res = await api.get(`/events?venue=${hall()}`, { token: editor });

    expect(titles(res)).toEqual(['F1 hall host', 'F2 hall both', 'F5 hall draft']);
  });

  it('gives a venue filter the same totals from the tallies as from reading the events', async () => {
    for (const token of [undefined, editor])
      for (const window of [
        '',
        '&start_date=2020-01-01',
        '&starts_after=2027-05-01',
        '&ends_before=2027-05-03',
      ]) {
        const tallied = await api.get(`/events?venue=${hall()}${window}`, { token });
        const read = await api.get(`/events?venue=${hall()}${window}&search=filterword`, { token });

        expect(tallied.body.total).toBe(read.body.total);
        expect(titles(tallied)).toEqual(titles(read));
      }
  });

  it('refuses an unknown venue or organizer (sample 081), a non-numeric one, or a venue given as organizer', async () => {
    for (const query of [
      'venue=999999',
      'venue=foo',
      `organizer=${hall()}`,
      `venue=${host()}`,
      `venue=${hall()},999999`,
    ]) {
      const res = await api.get(`/events?${query}`);

      expect(res.status).toBe(400);
      expect(Object.keys(res.body.data.params)).toEqual([query.split('=')[0]]);
    }
  });
});

describe('geolocation filters (decisions §5)', () => {
  const made: number[] = [];

  beforeAll(async () => {
    const at = async (title: string, fields: Rec) =>
      made.push(
        (await create({ title, start_date: '2027-06-10 10:00', end_date: '2027-06-10 11:00', ...fields })).id,
      );
    await at('G1 Paris', { venue: v.paris!.id });
    await at('G2 Berlin', { venue: v.berlin!.id });
    await at('G3 park without coordinates', { venue: v.park!.id });
    await at('G4 no venue', {});
  });
  afterAll(async () => {
    for (const id of made) await forceDelete(id);
  });

  const window = 'start_date=2027-06-10&end_date=2027-06-10';

  it('geoloc=true keeps events whose venue has coordinates', async () => {
    expect(titles(await api.get(`/events?${window}&geoloc=true`))).toEqual(['G1 Paris', 'G2 Berlin']);
  });

  it('geoloc=false keeps the others, events without a venue included', async () => {
    expect(titles(await api.get(`/events?${window}&geoloc=false`))).toEqual([
      'G3 park without coordinates',
      'G4 no venue',
    ]);
  });

  it('keeps events within 25 km of geoloc_lat / geoloc_lng by default', async () => {
    expect(titles(await api.get(`/events?${window}&geoloc_lat=48.86&geoloc_lng=2.34`))).toEqual(['G1 Paris']);
  });

  it('widens with geoloc_radius (Paris–Berlin is about 880 km)', async () => {
    expect(
      titles(await api.get(`/events?${window}&geoloc_lat=48.86&geoloc_lng=2.34&geoloc_radius=1000`)),
    ).toEqual(['G1 Paris', 'G2 Berlin']);
    expect(
      titles(await api.get(`/events?${window}&geoloc_lat=48.86&geoloc_lng=2.34&geoloc_radius=800`)),
    ).toEqual(['G1 Paris']);
  });

  it('answers a point far from every venue with an empty list', async () => {
    expect(titles(await api.get(`/events?${window}&geoloc_lat=-33.9&geoloc_lng=151.2`))).toEqual([]);
  });

  it('refuses geoloc_lat without geoloc_lng', async () => {
    const res = await api.get(`/events?${window}&geoloc_lat=48.86`);

    expect(res.status).toBe(400);
    expect(res.body.data.params).toHaveProperty('geoloc_lng');
  });
});

describe.each([
  {
    collection: 'venues',
    one: 'venue',
    make: () => venue({ venue: `Facts Venue ${Math.random()}` }),
    link: (id: number) => ({ venue: id }),
  },
  {
    collection: 'organizers',
    one: 'organizer',
    make: () => organizer({ organizer: `Facts Organizer ${Math.random()}` }),
    link: (id: number) => ({ organizer: [id] }),
  },
])('$collection: has_events, only_with_upcoming and event', ({ collection, make, link }) => {
  const listIds = async (query: string, token?: string) =>
    ids(await api.get(`/${collection}?per_page=50&${query}`, { token }), collection);
  const hasEvents = async (id: number, token?: string) => {
    const yes = (await listIds('has_events=true', token)).includes(id);
    const no = (await listIds('has_events=false', token)).includes(id);
    expect(yes).not.toBe(no);
    return yes;
  };
  const upcoming = async (id: number, token?: string) =>
    (await listIds('only_with_upcoming=true', token)).includes(id);

  it('has_events is false without events and with only a draft or pending event', async () => {
    const rec = await make();
    const before = await hasEvents(rec.id);

    await create({ title: 'Draft Link', status: 'draft', ...link(rec.id) });
    await create({ title: 'Pending Link', status: 'pending', ...link(rec.id) });

    expect([before, await hasEvents(rec.id), await hasEvents(rec.id, editor)]).toEqual([false, false, false]);
  });

  it('has_events follows the event’s status: publish, trash, restore, force delete', async () => {
    const rec = await make();
    const e = await create({ title: 'Status Link', status: 'draft', ...link(rec.id) });

    await api.patch(`/events/${e.id}`, { status: 'publish' }, { token: editor });
    const published = await hasEvents(rec.id);
    await api.del(`/events/${e.id}`, { token: editor });
    const trashed = await hasEvents(rec.id);
    await api.patch(`/events/${e.id}`, { status: 'publish' }, { token: editor });
    const restored = await hasEvents(rec.id);
    await api.del(`/events/${e.id}?force=true`, { token: editor });
    const deleted = await hasEvents(rec.id);

    expect([published, trashed, restored, deleted]).toEqual([true, false, true, false]);
  });

  it('has_events moves with a change of links', async () => {
    const from = await make();
    const to = await make();
    const e = await create({ title: 'Moving Link', ...link(from.id) });

    await api.patch(`/events/${e.id}`, link(to.id), { token: editor });

    expect([await hasEvents(from.id), await hasEvents(to.id)]).toEqual([false, true]);
  });

  it('has_events counts events hidden from listings, and past events', async () => {
    const hidden = await make();
    const past = await make();

    await create({ title: 'Hidden Link', hide_from_listings: true, ...link(hidden.id) });
    await create({
      title: 'Past Link',
      start_date: '2020-01-01 10:00',
      end_date: '2020-01-01 11:00',
      ...link(past.id),
    });

    expect([await hasEvents(hidden.id), await hasEvents(past.id)]).toEqual([true, true]);
  });

  it('has_events counts a private event for editors only', async () => {
    const rec = await make();

    await create({ title: 'Private Link', status: 'private', ...link(rec.id) });

    expect([await hasEvents(rec.id), await hasEvents(rec.id, editor)]).toEqual([false, true]);
  });

  it('only_with_upcoming keeps records with events that have not ended, running ones included', async () => {
    const future = await make();
    const running = await make();
    const past = await make();
    const none = await make();

    await create({
      title: 'Future Link',
      start_date: '2027-01-01 10:00',
      end_date: '2027-01-01 11:00',
      ...link(future.id),
    });
    await create({
      title: 'Running Link',
      start_date: '2026-11-01 10:00',
      end_date: '2027-02-28 18:00',
      ...link(running.id),
    });
    await create({
      title: 'Past Only Link',
      start_date: '2026-11-22 09:00',
      end_date: '2026-11-22 11:00',
      ...link(past.id),
    });

    const found = await listIds('only_with_upcoming=true');
    expect([future.id, running.id, past.id, none.id].map((id) => found.includes(id))).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it('only_with_upcoming compares the UTC end: an event in New York that ends at 07:00 local is still running', async () => {
    const rec = await make();

    await create({
      title: 'NY Morning Link',
      start_date: '2026-11-22 05:00',
      end_date: '2026-11-22 07:00',
      timezone: 'America/New_York',
      ...link(rec.id),
    });

    expect(await upcoming(rec.id)).toBe(true);
  });

  it('only_with_upcoming counts a draft upcoming event for editors only, and no trashed one', async () => {
    const drafted = await make();
    const trashed = await make();
    await create({
      title: 'Draft Upcoming Link',
      status: 'draft',
      start_date: '2027-01-01 10:00',
      end_date: '2027-01-01 11:00',
      ...link(drafted.id),
    });
    const e = await create({
      title: 'Trashed Upcoming Link',
      start_date: '2027-01-01 10:00',
      end_date: '2027-01-01 11:00',
      ...link(trashed.id),
    });
    await api.del(`/events/${e.id}`, { token: editor });

    expect([await upcoming(drafted.id), await upcoming(drafted.id, editor)]).toEqual([false, true]);
    expect(await upcoming(trashed.id, editor)).toBe(false);
  });

  it('only_with_upcoming considers every upcoming event, not a first page of them (decisions §5)', async () => {
    const busy = await make();
    const later = await make();
    const made: number[] = [];
    for (let i = 0; i < 12; i++)
      made.push(
        (
          await create({
            title: `Busy ${i}`,
            start_date: `2026-12-0${(i % 9) + 1} 10:00`,
            end_date: `2026-12-0${(i % 9) + 1} 11:00`,
            ...link(busy.id),
          })
        ).id,
      );
    made.push(
      (
        await create({
          title: 'Much Later',
          start_date: '2028-06-01 10:00',
          end_date: '2028-06-01 11:00',
          ...link(later.id),
        })
      ).id,
    );

    const found = await listIds('only_with_upcoming=true');
    for (const id of made) await forceDelete(id);

    expect([found.includes(busy.id), found.includes(later.id)]).toEqual([true, true]);
  });

  it('event=<id> lists the records of that event, following link changes', async () => {
    const a = await make();
    const b = await make();
    const e = await create({ title: 'Event Filter Link', ...link(a.id) });

    const before = await listIds(`event=${e.id}`);
    await api.patch(`/events/${e.id}`, link(b.id), { token: editor });

    expect([before, await listIds(`event=${e.id}`)]).toEqual([[a.id], [b.id]]);
  });

  it('event=<id> of a draft event is refused to visitors, served to editors', async () => {
    const rec = await make();
    const e = await create({ title: 'Draft Event Filter', status: 'draft', ...link(rec.id) });

    expect((await api.get(`/${collection}?event=${e.id}`)).status).toBe(400);
    expect(await listIds(`event=${e.id}`, editor)).toEqual([rec.id]);
  });
});

describe('deleting a venue or organizer unlinks it from its events', () => {
  it('trashing a venue leaves its events without it and refuses it as a filter', async () => {
    const place = await venue({ venue: 'Closing Down Hall' });
    const e = await create({ title: 'Loses Its Hall', venue: place.id, organizer: [o.friends!.id] });

    const res = await api.del(`/venues/${place.id}`, { token: editor });

    expect(res.status).toBe(200);
    expect((await api.get(`/events/${e.id}`)).body).toMatchObject({
      venue: [],
      organizer: [expect.objectContaining({ id: o.friends!.id })],
    });
    expect((await api.get(`/events?venue=${place.id}`)).status).toBe(400);
    expect((await api.patch(`/events/${e.id}`, { title: 'Still Editable' }, { token: editor })).status).toBe(
      200,
    );
  });

  it('deleting an organizer for good leaves its events with the others', async () => {
    const gone = await organizer({ organizer: 'Leaving Organizer' });
    const e = await create({ title: 'Loses One Organizer', organizer: [gone.id, o.friends!.id] });

    await api.del(`/organizers/${gone.id}?force=true`, { token: editor });

    expect((await api.get(`/events/${e.id}`)).body.organizer.map((x: Rec) => x.id)).toEqual([o.friends!.id]);
    expect(titles(await api.get(`/events?organizer=${o.friends!.id}&include=${e.id}`))).toEqual([
      'Loses One Organizer',
    ]);
  });
});
