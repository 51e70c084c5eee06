import { describe, expect, it } from 'vitest';
import { useStack } from '../support/use-stack';
import { creator } from '../support/bodies';

/**
 * Settled gaps of the contract (decisions §6, §8): ID 0 is an unknown ID like any other; update by
 * slug needs no slug in the body and renames with one; an event's date and modified are site-local.
 */
const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

const created = creator(api, editor);

describe('ID 0 (decisions §8)', () => {
  it.each([
    ['/events/0', 'rest-event-not-found'],
    ['/venues/0', 'rest-venue-not-found'],
    ['/organizers/0', 'rest-organizer-not-found'],
    ['/categories/0', 'rest-category-not-found'],
    ['/tags/0', 'rest-tag-not-found'],
  ])('GET %s answers 404 %s', async (path, code) => {
    const res = await api.get(path);

    expect(res.status).toBe(404);
    expect(res.body.code).toBe(code);
    expect(res.body.data.status).toBe(404);
  });
});

describe('PATCH /venues/by-slug/{slug} (decisions §6)', () => {
  it('updates with no slug in the body, keeping the slug', async () => {
    const venue = await created('/venues', { venue: 'Slugless Update Hall', city: 'Old Town' });

    const res = await api.patch(`/venues/by-slug/${venue.slug}`, { city: 'New Town' }, { token: editor });

    expect(res.status).toBe(200);
    expect(res.body.id).toBe(venue.id);
    expect(res.body.city).toBe('New Town');
    expect(res.body.slug).toBe(venue.slug);
    expect((await api.get(`/venues/${venue.id}`)).body.city).toBe('New Town');
  });

  it('renames with a new slug in the body', async () => {
    const venue = await created('/venues', { venue: 'Renamed Slug Hall' });

    const res = await api.patch(`/venues/by-slug/${venue.slug}`, { slug: 'new-one' }, { token: editor });

    expect(res.status).toBe(200);
    expect(res.body.slug).toBe('new-one');
    expect((await api.get('/venues/by-slug/new-one')).body.id).toBe(venue.id);
    expect((await api.get(`/venues/by-slug/${venue.slug}`)).status).toBe(404);
  });

  it('refuses a slug another venue holds with a 400 naming slug, changing nothing', async () => {
    const holder = await created('/venues', { venue: 'Slug Holder Hall' });
    const venue = await created('/venues', { venue: 'Slug Taker Hall', city: 'Before' });

    const res = await api.patch(
      `/venues/by-slug/${venue.slug}`,
      { slug: holder.slug, city: 'After' },
      { token: editor },
    );

    expect(res.status).toBe(400);
    expect(Object.keys(res.body.data.params)).toEqual(['slug']);
    const after = await api.get(`/venues/${venue.id}`);
    expect(after.body.slug).toBe(venue.slug);
    expect(after.body.city).toBe('Before');
    expect((await api.get(`/venues/by-slug/${holder.slug}`)).body.id).toBe(holder.id);
  });
});

describe('an event’s date and modified are in the site time zone (decisions §8; SITE_TIMEZONE=UTC here)', () => {
  const body = {
    title: 'New York Evening',
    timezone: 'America/New_York',
    start_date: '2039-04-01 19:00:00',
    end_date: '2039-04-01 21:00:00',
  };

  it('creates an event of another zone with date = date_utc and modified = modified_utc', async () => {
    const event = await created('/events', body);

    expect(event.timezone).toBe('America/New_York');
    expect(event.date).toBe(event.date_utc);
    expect(event.modified).toBe(event.modified_utc);
  });

  it('keeps modified = modified_utc on update', async () => {
    const event = await created('/events', { ...body, title: 'New York Evening Updated' });

    const res = await api.patch(`/events/${event.id}`, { cost: '10' }, { token: editor });

    expect(res.status).toBe(200);
    expect(res.body.modified).toBe(res.body.modified_utc);
    expect(res.body.date).toBe(res.body.date_utc);
  });

  it('reads an event’s wall dates in its own zone: start_date local, utc_start_date four hours later', async () => {
    const event = await created('/events', { ...body, title: 'New York Evening Dates' });

    expect(event.start_date).toBe('2039-04-01 19:00:00');
    expect(event.utc_start_date).toBe('2039-04-01 23:00:00');
  });
});
