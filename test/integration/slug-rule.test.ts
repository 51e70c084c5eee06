import { describe, expect, it } from 'vitest';
import { useStack } from '../support/use-stack';

/**
 * Slugs as a site running the reference keeps them (issue 39, decisions §9): WordPress's rule for
 * events, venues, organizers, categories and tags, with the reference's answers as the expected
 * values; by-slug routes, `url` pages and slug filters take the encoded and the decoded form.
 */
const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

const WHEN = { start_date: '2027-09-01 10:00:00', end_date: '2027-09-01 11:00:00' };

async function created(path: string, body: Record<string, unknown>) {
  const res = await api.post(path, body, { token: editor });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; slug: string; url: string };
}

const MOSCOW = '%d0%bc%d0%be%d1%81%d0%ba%d0%b2%d0%b0-%d0%ba%d0%be%d0%bd%d1%86%d0%b5%d1%80%d1%82';

describe('event slugs follow WordPress (the reference answers)', () => {
  it.each([
    ['Концерт Juniper', '%d0%ba%d0%be%d0%bd%d1%86%d0%b5%d1%80%d1%82-juniper'],
    ['Москва-концерт', MOSCOW],
    ['音楽', '%e9%9f%b3%e6%a5%bd'],
    ['Drum Circle 🥁', 'drum-circle-%f0%9f%a5%81'],
  ])('titles %j → %j, in the url too', async (title, slug) => {
    const e = await created('/events', { title, ...WHEN });

    expect(e.slug).toBe(slug);
    expect(e.url).toBe(`http://calendar.test/event/${slug}/`);
  });

  it('keeps a sent slug with `_` and turns `/` into `-`', async () => {
    const e = await created('/events', { title: 'Early', slug: 'early_bird/special', ...WHEN });

    expect(e.slug).toBe('early_bird-special');
  });

  it('gives distinct non-Latin names distinct slugs, and renames to a third', async () => {
    const tokyo = await created('/events', { title: '東京-meetup', ...WHEN });
    const osaka = await created('/events', { title: '大阪-meetup', ...WHEN });
    const third = await created('/events', { title: 'Meetup three', ...WHEN });

    const renamed = await api.patch(`/events/${third.id}`, { slug: '京都-meetup' }, { token: editor });

    expect([tokyo.slug, osaka.slug]).toEqual(['%e6%9d%b1%e4%ba%ac-meetup', '%e5%a4%a7%e9%98%aa-meetup']);
    expect(renamed.status).toBe(200);
    expect(renamed.body.slug).toBe('%e4%ba%ac%e9%83%bd-meetup');
  });

  it('gives `slug: ""` on create the title\'s slug, not the ID (decisions §9)', async () => {
    const e = await created('/events', { title: 'Empty Slug Night', slug: '', ...WHEN });

    expect(e.slug).toBe('empty-slug-night');
  });

  it('cuts a slug over 200 characters to 200 rather than refusing it', async () => {
    const e = await created('/events', { title: 'Long', slug: 'x'.repeat(300), ...WHEN });

    expect(e.slug).toBe('x'.repeat(200));
    expect((await api.get(`/events/by-slug/${e.slug}`)).body.id).toBe(e.id);
  });

  it('answers by-slug reads, updates and the page for the encoded and the decoded form', async () => {
    const e = await created('/events', { title: 'Оркестр 音楽', ...WHEN });
    const encoded = e.slug;
    const decoded = decodeURIComponent(encoded);

    expect(decoded).toBe('оркестр-音楽');
    for (const form of [encoded, decoded, encoded.toUpperCase(), encodeURIComponent(encoded)])
      expect((await api.get(`/events/by-slug/${form}`)).body.id, form).toBe(e.id);
    const patched = await api.patch(`/events/by-slug/${decoded}`, { excerpt: 'x' }, { token: editor });
    expect(patched.status).toBe(200);
    expect(patched.body.slug).toBe(encoded);
    for (const path of [new URL(e.url).pathname, `/event/${decoded}/`]) {
      const res = await fetch(`${api.origin}${path}`);
      expect(res.status, path).toBe(200);
      expect(await res.text()).toContain('Оркестр 音楽');
    }
  });
});

describe('venue and organizer slugs', () => {
  it.each([
    ['/venues', 'venue'],
    ['/organizers', 'organizer'],
  ])('%s: a non-Latin name keeps its letters, found by either form', async (path, field) => {
    const p = await created(path, { [field]: 'Москва-концерт' });

    expect(p.slug).toBe(MOSCOW);
    expect((await api.get(`${path}/by-slug/Москва-концерт`)).body.id).toBe(p.id);
    expect((await api.get(`${path}/by-slug/${MOSCOW}`)).body.id).toBe(p.id);
  });
});

describe('term slugs', () => {
  it('keeps a tag of non-Latin letters, filtered by either form', async () => {
    const tag = await created('/tags', { name: '家族' });
    const event = await created('/events', { title: 'Family Day', tags: ['%e5%ae%b6%e6%97%8f'], ...WHEN });

    expect(tag.slug).toBe('%e5%ae%b6%e6%97%8f');
    expect(tag.url).toBe('http://calendar.test/tag/%e5%ae%b6%e6%97%8f/');
    for (const form of ['家族', '%e5%ae%b6%e6%97%8f']) {
      const q = encodeURIComponent(form);
      expect(
        (await api.get(`/tags?slug=${q}&hide_empty=false`)).body.tags.map((t: { id: number }) => t.id),
      ).toEqual([tag.id]);
      expect(
        (await api.get(`/events?tags=${q}&start_date=2027-09-01`)).body.events.map(
          (x: { id: number }) => x.id,
        ),
      ).toContain(event.id);
    }
    expect((await fetch(`${api.origin}/tag/家族/`)).status).toBe(200);
  });

  it('turns a category `Jazz/Blues` into `jazz-blues`', async () => {
    const cat = await created('/categories', { name: 'Jazz/Blues' });

    expect(cat.slug).toBe('jazz-blues');
  });

  it('finds a category of non-Latin letters by either form in the event filter', async () => {
    const cat = await created('/categories', { name: 'Музыка' });
    const event = await created('/events', { title: 'Music Night', categories: [cat.id], ...WHEN });

    for (const form of ['Музыка', cat.slug]) {
      const res = await api.get(`/events?categories=${encodeURIComponent(form)}&start_date=2027-09-01`);
      expect(res.status, form).toBe(200);
      expect(res.body.events.map((x: { id: number }) => x.id)).toContain(event.id);
    }
  });
});
