import { describe, expect, it } from 'vitest';
import { useStack } from '../support/use-stack';
import { type Rec, creator } from '../support/bodies';

/**
 * Trash loses nothing (decisions §6): a trashed venue or organizer stays linked to its events. Callers
 * who may not see trash do not see it embedded, listed or usable as a filter; editors still see it
 * embedded (visibility.canSeeLinked); restoring it through `status` brings back every link as it was.
 */
const WHEN = { start_date: '2031-03-10 18:00:00', end_date: '2031-03-10 21:00:00' };
const WINDOW = 'start_date=2031-01-01&end_date=2031-12-31';

const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

const created = creator(api, editor);

const embeddedIds = (event: Rec, field: 'venue' | 'organizer'): number[] =>
  [event[field]].flat().map((r: Rec) => r.id);

/** An event linked to a venue, an organizer, a category and a tag, all published. */
async function linkedEvent(label: string) {
  const venue = await created('/venues', { venue: `${label} Venue` });
  const organizer = await created('/organizers', { organizer: `${label} Organizer` });
  const category = await created('/categories', { name: `${label} Category` });
  const tag = await created('/tags', { name: `${label} Tag` });
  const event = await created('/events', {
    ...WHEN,
    title: `${label} Event`,
    venue: venue.id,
    organizer: organizer.id,
    categories: [category.id],
    tags: [tag.id],
  });
  return { venue, organizer, category, tag, event };
}

const kinds = [
  { one: 'venue', path: '/venues', other: 'organizer' },
  { one: 'organizer', path: '/organizers', other: 'venue' },
] as const;

describe.each(kinds)('a trashed $one keeps its links (decisions §6)', ({ one, path, other }) => {
  it(`answers the trash with 200 and status trash`, async () => {
    const f = await linkedEvent(`Trash Answer ${one}`);

    const res = await api.del(`${path}/${f[one].id}`, { token: editor });

    expect(res.status).toBe(200);
    expect(res.body.id).toBe(f[one].id);
    expect(res.body.status).toBe('trash');
  });

  it(`is not embedded in the event for visitors`, async () => {
    const f = await linkedEvent(`Hidden Embed ${one}`);
    expect((await api.del(`${path}/${f[one].id}`, { token: editor })).status).toBe(200);

    const res = await api.get(`/events/${f.event.id}`);

    expect(res.status).toBe(200);
    expect(embeddedIds(res.body, one)).toEqual([]);
    expect(embeddedIds(res.body, other)).toEqual([f[other].id]);
  });

  it(`is not embedded in the event list for visitors`, async () => {
    const f = await linkedEvent(`Hidden List Embed ${one}`);
    expect((await api.del(`${path}/${f[one].id}`, { token: editor })).status).toBe(200);

    const res = await api.get(`/events?include=${f.event.id}`);

    expect(res.status).toBe(200);
    expect(res.body.events).toHaveLength(1);
    expect(embeddedIds(res.body.events[0], one)).toEqual([]);
  });

  it(`is not listed under ${path}?event=E for visitors`, async () => {
    const f = await linkedEvent(`Hidden Listed ${one}`);
    expect((await api.del(`${path}/${f[one].id}`, { token: editor })).status).toBe(200);

    const res = await api.get(`${path}?event=${f.event.id}`);

    expect(res.status).toBe(200);
    expect(res.body[`${one}s`].map((r: Rec) => r.id)).toEqual([]);
  });

  it(`makes GET /events?${one}=ID a 400 naming ${one} for visitors`, async () => {
    const f = await linkedEvent(`Hidden Filter ${one}`);
    expect((await api.del(`${path}/${f[one].id}`, { token: editor })).status).toBe(200);

    const res = await api.get(`/events?${one}=${f[one].id}&${WINDOW}`);

    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect(Object.keys(res.body.data.params)).toContain(one);
  });

  it(`is still embedded, as trashed, for an editor`, async () => {
    const f = await linkedEvent(`Editor Embed ${one}`);
    expect((await api.del(`${path}/${f[one].id}`, { token: editor })).status).toBe(200);

    const res = await api.get(`/events/${f.event.id}`, { token: editor });

    expect(res.status).toBe(200);
    const embedded = [res.body[one]].flat() as Rec[];
    expect(embedded.map((r) => r.id)).toEqual([f[one].id]);
    expect(embedded[0]!.status).toBe('trash');
  });

  it(`is embedded again after a restore through status`, async () => {
    const f = await linkedEvent(`Restored Embed ${one}`);
    expect((await api.del(`${path}/${f[one].id}`, { token: editor })).status).toBe(200);

    const restored = await api.patch(`${path}/${f[one].id}`, { status: 'publish' }, { token: editor });

    expect(restored.status).toBe(200);
    expect(restored.body.status).toBe('publish');
    const res = await api.get(`/events/${f.event.id}`);
    expect(embeddedIds(res.body, one)).toEqual([f[one].id]);
  });

  it(`is listed under ${path}?event=E again after a restore`, async () => {
    const f = await linkedEvent(`Restored Listed ${one}`);
    expect((await api.del(`${path}/${f[one].id}`, { token: editor })).status).toBe(200);

    await api.patch(`${path}/${f[one].id}`, { status: 'publish' }, { token: editor });

    const res = await api.get(`${path}?event=${f.event.id}`);
    expect(res.status).toBe(200);
    expect(res.body[`${one}s`].map((r: Rec) => r.id)).toEqual([f[one].id]);
  });

  it(`filters GET /events?${one}=ID to its event again after a restore`, async () => {
    const f = await linkedEvent(`Restored Filter ${one}`);
    expect((await api.del(`${path}/${f[one].id}`, { token: editor })).status).toBe(200);

    await api.patch(`${path}/${f[one].id}`, { status: 'publish' }, { token: editor });

    const res = await api.get(`/events?${one}=${f[one].id}&${WINDOW}`);
    expect(res.status).toBe(200);
    expect(res.body.events.map((e: Rec) => e.id)).toEqual([f.event.id]);
  });

  it(`has events again after a restore (has_events=true lists it, has_events=false does not)`, async () => {
    const f = await linkedEvent(`Restored Has Events ${one}`);
    expect((await api.del(`${path}/${f[one].id}`, { token: editor })).status).toBe(200);

    await api.patch(`${path}/${f[one].id}`, { status: 'publish' }, { token: editor });

    const search = encodeURIComponent(`Restored Has Events ${one}`);
    const withEvents = await api.get(`${path}?has_events=true&search=${search}`);
    const without = await api.get(`${path}?has_events=false&search=${search}`);
    expect(withEvents.status).toBe(200);
    expect(withEvents.body[`${one}s`].map((r: Rec) => r.id)).toContain(f[one].id);
    expect(without.body[`${one}s`].map((r: Rec) => r.id)).not.toContain(f[one].id);
  });

  it(`leaves the event's other links as they were through trash and restore`, async () => {
    const f = await linkedEvent(`Other Links ${one}`);
    const before = (await api.get(`/events/${f.event.id}`)).body as Rec;
    expect((await api.del(`${path}/${f[one].id}`, { token: editor })).status).toBe(200);

    await api.patch(`${path}/${f[one].id}`, { status: 'publish' }, { token: editor });

    const after = (await api.get(`/events/${f.event.id}`)).body as Rec;
    expect(after[other]).toEqual(before[other]);
    expect(after.categories).toEqual(before.categories);
    expect(after.tags).toEqual(before.tags);
    expect(embeddedIds(after, one)).toEqual(embeddedIds(before, one));
  });

  it(`keeps the link when the event is updated while the ${one} is in the trash`, async () => {
    const f = await linkedEvent(`Updated Meanwhile ${one}`);
    expect((await api.del(`${path}/${f[one].id}`, { token: editor })).status).toBe(200);
    const patched = await api.patch(
      `/events/${f.event.id}`,
      { title: `Renamed ${one} Event` },
      { token: editor },
    );
    expect(patched.status).toBe(200);

    await api.patch(`${path}/${f[one].id}`, { status: 'publish' }, { token: editor });

    expect(embeddedIds((await api.get(`/events/${f.event.id}`)).body, one)).toEqual([f[one].id]);
    const filtered = await api.get(`/events?${one}=${f[one].id}&${WINDOW}`);
    expect(filtered.body.events.map((e: Rec) => e.id)).toEqual([f.event.id]);
  });

  it(`keeps the event's term counts through trash and restore`, async () => {
    const f = await linkedEvent(`Term Counts ${one}`);
    expect((await api.del(`${path}/${f[one].id}`, { token: editor })).status).toBe(200);

    await api.patch(`${path}/${f[one].id}`, { status: 'publish' }, { token: editor });

    expect((await api.get(`/categories/${f.category.id}`)).body.count).toBe(1);
    expect((await api.get(`/tags/${f.tag.id}`)).body.count).toBe(1);
  });
});
