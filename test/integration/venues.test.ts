import { describe, expect, it } from 'vitest';
import { useStack } from '../support/use-stack';

/** Venue-only behaviour: its fields, stateprovince, map flags, coordinates, JSON-LD and search. */
const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

const create = async (body: Record<string, unknown>) => {
  const res = await api.post('/venues', body, { token: editor });
  expect(res.status).toBe(201);
  return res.body;
};

const BLUE_NOTE = {
  venue: 'Blue Note Hall',
  description: '<p>Legendary jazz club.</p>',
  address: '131 W 3rd St',
  city: 'New York',
  country: 'United States',
  state: 'NY',
  zip: '10012',
  phone: '+1 212-475-8592',
  website: 'https://bluenote.example.com',
  show_map: 'true',
  show_map_link: 'true',
};

describe('venue representation', () => {
  it('has the reference keys in the reference order (sample 013)', async () => {
    const v = await create(BLUE_NOTE);

    expect(Object.keys(v)).toEqual([
      'id',
      'author',
      'status',
      'date',
      'date_utc',
      'modified',
      'modified_utc',
      'url',
      'venue',
      'description',
      'slug',
      'address',
      'city',
      'country',
      'state',
      'zip',
      'phone',
      'website',
      'stateprovince',
      'show_map',
      'show_map_link',
      'global_id',
      'global_id_lineage',
    ]);
    expect(v).toMatchObject({
      ...BLUE_NOTE,
      show_map: true,
      show_map_link: true,
      stateprovince: 'NY',
      url: 'http://calendar.test/venue/blue-note-hall/',
    });
  });

  it('adds json_ld (a schema.org Place) before show_map on single reads (sample 124)', async () => {
    const v = await create({ ...BLUE_NOTE, venue: 'Blue Note Two' });

    const res = await api.get(`/venues/${v.id}`);

    const keys = Object.keys(res.body);
    expect(keys.slice(keys.indexOf('stateprovince'))).toEqual([
      'stateprovince',
      'json_ld',
      'show_map',
      'show_map_link',
      'global_id',
      'global_id_lineage',
    ]);
    expect(res.body.json_ld).toEqual({
      '@type': 'Place',
      name: 'Blue Note Two',
      description: 'Legendary jazz club.',
      url: 'http://calendar.test/venue/blue-note-two/',
      address: {
        '@type': 'PostalAddress',
        streetAddress: '131 W 3rd St',
        addressLocality: 'New York',
        addressRegion: 'NY',
        postalCode: '10012',
        addressCountry: 'United States',
      },
      telephone: '+1 212-475-8592',
      sameAs: 'https://bluenote.example.com',
    });
  });

  it('keeps a name-only venue down to the always-present keys (samples 015, 125)', async () => {
    const v = await create({ venue: 'Empty Venue' });

    const single = await api.get(`/venues/${v.id}`);

    expect(Object.keys(v)).toEqual([
      'id',
      'author',
      'status',
      'date',
      'date_utc',
      'modified',
      'modified_utc',
      'url',
      'venue',
      'slug',
      'show_map',
      'show_map_link',
      'global_id',
      'global_id_lineage',
    ]);
    expect(single.body.json_ld).toMatchObject({
      '@type': 'Place',
      name: 'Empty Venue',
      address: { '@type': 'PostalAddress' },
      telephone: '',
      sameAs: '',
    });
  });

  it('stores every field of sample 193: an explicit stateprovince, an empty state, show_map "false"', async () => {
    const v = await create({
      venue: 'Harbour Stage',
      description: 'Open-air stage',
      address: 'Pier 4',
      city: 'Hamburg',
      country: 'Germany',
      province: 'Hamburg',
      state: '',
      zip: '20457',
      phone: '040 123',
      stateprovince: 'HH',
      website: 'https://harbour.example.com',
      show_map: 'false',
      show_map_link: 'true',
      status: 'draft',
    });

    expect(v).toMatchObject({
      status: 'draft',
      province: 'Hamburg',
      stateprovince: 'HH',
      show_map: false,
      show_map_link: true,
    });
    expect(v).not.toHaveProperty('state');
  });
});

describe('stateprovince', () => {
  it.each([
    ['the state for a US address', { country: 'United States', state: 'NY', province: 'Ignored' }, 'NY'],
    ['the state for "US"', { country: 'US', state: 'CA' }, 'CA'],
    ['the state when no country is given', { state: 'TX' }, 'TX'],
    [
      'the province elsewhere (sample 014)',
      { city: 'Berlin', country: 'Germany', province: 'Berlin', zip: '10115' },
      'Berlin',
    ],
  ])('defaults to %s', async (_label, fields, expected) => {
    const v = await create({ venue: 'Where', ...fields });

    expect(v.stateprovince).toBe(expected);
  });

  // Issue 39, decisions §9: the reference's answers (the key was missing here).
  it.each([
    ['no country', { province: 'Ontario' }],
    ['the United States', { country: 'United States', province: 'Ontario' }],
    ['"US"', { country: 'US', province: 'Ontario', state: '' }],
  ])('is the province when there is no state and %s, in json_ld too', async (_label, fields) => {
    const v = await create({ venue: 'Province Only', ...fields });
    const single = await api.get(`/venues/${v.id}`);

    expect([v.stateprovince, single.body.stateprovince]).toEqual(['Ontario', 'Ontario']);
    expect(single.body.json_ld.address.addressRegion).toBe('Ontario');
  });

  it('is absent when the derived field is empty (sample 016)', async () => {
    const v = await create({ venue: 'Old Theatre', city: 'London', country: 'United Kingdom' });

    expect(v).not.toHaveProperty('stateprovince');
  });

  it('follows later edits of country, state and province unless set explicitly', async () => {
    const v = await create({
      venue: 'Moving Venue',
      country: 'United States',
      state: 'NY',
      province: 'Ontario',
    });

    const moved = await api.patch(`/venues/${v.id}`, { country: 'Canada' }, { token: editor });
    const pinned = await api.patch(`/venues/${v.id}`, { stateprovince: 'ON' }, { token: editor });
    const unpinned = await api.patch(`/venues/${v.id}`, { stateprovince: '' }, { token: editor });

    expect(moved.body.stateprovince).toBe('Ontario');
    expect(pinned.body.stateprovince).toBe('ON');
    expect(unpinned.body.stateprovince).toBe('Ontario');
  });
});

describe('partial updates of venue fields', () => {
  it('changes only what is sent and clears a field sent empty (sample 195, as a partial update)', async () => {
    const v = await create({
      venue: 'Riverside Park',
      city: 'Berlin',
      country: 'Germany',
      province: 'Berlin',
      zip: '10115',
    });

    const res = await api.put(`/venues/${v.id}`, { city: 'Hamburg', zip: '' }, { token: editor });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      city: 'Hamburg',
      country: 'Germany',
      province: 'Berlin',
      stateprovince: 'Berlin',
    });
    expect(res.body).not.toHaveProperty('zip');
  });

  it('renaming onto another venue’s name is allowed and keeps the slug', async () => {
    await create({ venue: 'Name Holder' });
    const v = await create({ venue: 'Renamed Later' });

    const res = await api.patch(`/venues/${v.id}`, { venue: 'Name Holder' }, { token: editor });

    expect(res.body).toMatchObject({ venue: 'Name Holder', slug: 'renamed-later' });
  });
});

describe('show_map and show_map_link', () => {
  it('default to true', async () => {
    const v = await create({ venue: 'Mapped By Default' });

    expect(v).toMatchObject({ show_map: true, show_map_link: true });
  });

  it('accept JSON booleans and "1" / "0"', async () => {
    const json = await create({ venue: 'Bool Map Venue', show_map: true, show_map_link: false });
    const digits = await create({ venue: 'Digit Map Venue', show_map: '0', show_map_link: '1' });

    expect(json).toMatchObject({ show_map: true, show_map_link: false });
    expect(digits).toMatchObject({ show_map: false, show_map_link: true });
  });

  it('stay as they are when not sent, and go back to true when sent null', async () => {
    const v = await create({ venue: 'Map Off', show_map: false });

    const untouched = await api.patch(`/venues/${v.id}`, { city: 'Lyon' }, { token: editor });
    const reset = await api.patch(`/venues/${v.id}`, { show_map: null }, { token: editor });

    expect(untouched.body.show_map).toBe(false);
    expect(reset.body.show_map).toBe(true);
  });

  it('refuse other values with 400', async () => {
    const res = await api.post('/venues', { venue: 'Maybe Map', show_map: 'yes' }, { token: editor });

    expect(res.status).toBe(400);
    expect(res.body.data.params.show_map).toBe('show_map is not of type boolean or null.');
  });
});

describe('coordinates', () => {
  it('are stored as numbers, shown as geo_lat / geo_lng and in json_ld', async () => {
    const v = await create({ venue: 'Geo Venue', geo_lat: 48.8566, geo_lng: 2.3522 });

    const single = await api.get(`/venues/${v.id}`);

    expect(v).toMatchObject({ geo_lat: 48.8566, geo_lng: 2.3522 });
    expect(single.body.json_ld.geo).toEqual({
      '@type': 'GeoCoordinates',
      latitude: 48.8566,
      longitude: 2.3522,
    });
  });

  it('are read from form strings and keep 0 (the equator is a place)', async () => {
    const res = await api.call('POST', '/venues', {
      form: { venue: 'Null Island', geo_lat: '0', geo_lng: '-0.5' },
      token: editor,
    });

    expect(res.body).toMatchObject({ geo_lat: 0, geo_lng: -0.5 });
  });

  it.each([
    ['a latitude above 90', { geo_lat: 91, geo_lng: 0 }, 'geo_lat'],
    ['a longitude below -180', { geo_lat: 0, geo_lng: -181 }, 'geo_lng'],
    ['a latitude without a longitude', { geo_lat: 10 }, 'geo_lng'],
    ['a non-numeric latitude', { geo_lat: 'north', geo_lng: 1 }, 'geo_lat'],
  ])('refuse %s', async (_label, fields, param) => {
    const res = await api.post('/venues', { venue: 'Bad Geo', ...fields }, { token: editor });

    expect(res.status).toBe(400);
    expect(res.body.data.params).toHaveProperty(param);
  });

  it('are cleared together, and one cannot be cleared alone', async () => {
    const v = await create({ venue: 'Geo Clear', geo_lat: 1, geo_lng: 2 });

    const alone = await api.patch(`/venues/${v.id}`, { geo_lat: null }, { token: editor });
    const moved = await api.patch(`/venues/${v.id}`, { geo_lat: 3 }, { token: editor });
    const both = await api.patch(`/venues/${v.id}`, { geo_lat: null, geo_lng: '' }, { token: editor });

    expect(alone.status).toBe(400);
    expect(moved.body).toMatchObject({ geo_lat: 3, geo_lng: 2 });
    expect(both.body).not.toHaveProperty('geo_lat');
    expect(both.body).not.toHaveProperty('geo_lng');
  });
});

describe('image', () => {
  it('takes an http(s) URL and reads back as {url, id: null, extension}', async () => {
    const v = await create({ venue: 'Pictured', image: 'https://cdn.example.com/img/Poster.PNG?v=2' });

    expect(v.image).toEqual({
      url: 'https://cdn.example.com/img/Poster.PNG?v=2',
      id: null,
      extension: 'png',
    });
    expect(Object.keys(v).indexOf('image')).toBe(Object.keys(v).indexOf('slug') + 1);
  });

  it('is removed when sent empty, kept when not sent', async () => {
    const v = await create({ venue: 'Pictured Once', image: 'https://cdn.example.com/a.jpg' });

    const kept = await api.patch(`/venues/${v.id}`, { city: 'Nice' }, { token: editor });
    const cleared = await api.patch(`/venues/${v.id}`, { image: '' }, { token: editor });

    expect(kept.body.image.extension).toBe('jpg');
    expect(cleared.body).not.toHaveProperty('image');
  });
});

describe('GET /venues?search=', () => {
  const ids = (res: { body: { venues: Array<{ id: number }> } }) => res.body.venues.map((v) => v.id);

  it('matches when one field holds every word, in any order and case (reference §7.1)', async () => {
    const temple = await create({ venue: 'Le Marais Hall', address: '100, Avenue du Temple', city: 'Paris' });

    expect(ids(await api.get('/venues?search=temple avenue'))).toEqual([temple.id]);
    expect(ids(await api.get('/venues?search=TEMPLE'))).toEqual([temple.id]);
    expect(ids(await api.get('/venues?search=temple paris'))).toEqual([]);
  });

  it('looks into phone, zip, state, province, stateprovince, city, name and description', async () => {
    const a = await create({ venue: 'Phone One', phone: '+1 555 1111 22', zip: '99501', state: 'AK' });
    const b = await create({ venue: 'Phone Two', phone: '1111', province: 'Quebecish', country: 'Canada' });
    const c = await create({
      venue: 'Described',
      description: '<p>A <b>sunny</b> rooftop</p>',
      city: 'Lisbonville',
    });

    expect(ids(await api.get('/venues?search=1111')).sort()).toEqual([a.id, b.id].sort());
    expect(ids(await api.get('/venues?search=99501'))).toEqual([a.id]);
    expect(ids(await api.get('/venues?search=quebecish'))).toEqual([b.id]);
    expect(ids(await api.get('/venues?search=sunny rooftop'))).toEqual([c.id]);
    expect(ids(await api.get('/venues?search=lisbonville'))).toEqual([c.id]);
    expect(ids(await api.get('/venues?search=phone two'))).toEqual([b.id]);
  });

  it('does not look into the website or the country', async () => {
    await create({
      venue: 'Hidden Fields',
      website: 'https://zebracrossing.example.com',
      country: 'Atlantisland',
    });

    expect(ids(await api.get('/venues?search=zebracrossing'))).toEqual([]);
    expect(ids(await api.get('/venues?search=atlantisland'))).toEqual([]);
  });
});

describe('inline venues in event bodies', () => {
  const eventWith = (venue: unknown) =>
    api.post(
      '/events',
      { title: 'Inline Host', start_date: '2031-05-01 18:00', end_date: '2031-05-01 20:00', venue },
      { token: editor },
    );

  it('creates the venue, and reuses it when the same name and fields come again', async () => {
    const first = await eventWith({ venue: 'Pop-up Loft', city: 'Paris' });
    const again = await eventWith({ venue: 'Pop-up Loft', city: 'Paris' });
    const different = await eventWith({ venue: 'Pop-up Loft', city: 'Lyon' });

    expect(first.status).toBe(201);
    expect(first.body.venue).toMatchObject({ venue: 'Pop-up Loft', city: 'Paris', slug: 'pop-up-loft' });
    expect(again.body.venue.id).toBe(first.body.venue.id);
    expect(different.body.venue.id).not.toBe(first.body.venue.id);
  });

  it('names the event parameter in its 400s, creating nothing', async () => {
    const before = (await api.get('/venues?per_page=1')).body.total;

    const badUrl = await eventWith([{ venue: 'Bad Inline', website: 'nope' }]);
    const noName = await eventWith({ city: 'Nameless' });

    expect(badUrl.status).toBe(400);
    expect(badUrl.body.data.params).toEqual({ venue: 'venue.website must be an http or https URL.' });
    expect(noName.status).toBe(400);
    expect(noName.body.data.params).toEqual({ venue: 'venue.venue is required.' });
    expect((await api.get('/venues?per_page=1')).body.total).toBe(before);
  });
});
