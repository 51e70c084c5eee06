import { describe, expect, it } from 'vitest';
import { coldHandler, type WriteFunction } from '../support/cold-functions';
import { invoke } from '../support/invoke';
import { useStack } from '../support/use-stack';
import { type Rec } from '../support/bodies';

/**
 * sanitize-html is loaded only by a write whose body holds markup (shared/http/lazy-parts.ts, from the
 * handler). Each write function here runs in a fresh module graph, as a cold Lambda does, so that no earlier
 * write has loaded the sanitizer for it: its first request with markup must still be sanitized.
 */
const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

const HTML = '<p onclick="x()">Hi <b>there</b></p><script>alert(1)</script>';
const SAFE = '<p>Hi <b>there</b></p>';
const TITLE = '<i>Rock</i> &amp; roll';

async function made(path: string, body: Rec): Promise<Rec> {
  const res = await api.post(path, body, { token: editor });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe('the first write with markup after a cold start', () => {
  it('creates an event, with an inline venue, sanitized', async () => {
    const res = await invoke(await coldHandler('events/create-event'), 'POST', '/events', {
      token: editor,
      body: {
        title: TITLE,
        description: HTML,
        start_date: '2031-05-01 10:00:00',
        end_date: '2031-05-01 11:00:00',
        venue: { venue: 'Inline <b>hall</b>', description: HTML },
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.title).toBe('Rock & roll');
    expect(res.body.description).toBe(SAFE);
    expect(res.body.venue.venue).toBe('Inline hall');
  });

  it('updates an event sanitized', async () => {
    const event = await made('/events', {
      title: 'Plain',
      start_date: '2031-05-02 10:00:00',
      end_date: '2031-05-02 11:00:00',
    });
    const res = await invoke(await coldHandler('events/update-event'), 'POST', `/events/${event.id}`, {
      token: editor,
      pathParameters: { id: String(event.id) },
      body: { excerpt: HTML },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.excerpt).toBe(SAFE);
  });

  // [collection, singular, the field holding its title or name]
  for (const [type, name, field] of [
    ['venues', 'venue', 'venue'],
    ['organizers', 'organizer', 'organizer'],
    ['categories', 'category', 'name'],
    ['tags', 'tag', 'name'],
  ] as const)
    it(`creates and updates a ${name} sanitized`, async () => {
      const create = `${type}/create-${name}` as WriteFunction;
      const created = await invoke(await coldHandler(create), 'POST', `/${type}`, {
        token: editor,
        body: { [field]: TITLE, description: HTML },
      });
      expect(created.status, created.text).toBe(201);
      expect(created.body[field]).toBe('Rock & roll');
      expect(created.body.description).toBe(SAFE);
      const plain = await made(`/${type}`, { [field]: `Plain ${name}` });
      const update = `${type}/update-${name}` as WriteFunction;
      const updated = await invoke(await coldHandler(update), 'POST', `/${type}/${plain.id}`, {
        token: editor,
        pathParameters: { id: String(plain.id) },
        body: { description: HTML },
      });
      expect(updated.status, updated.text).toBe(200);
      expect(updated.body.description).toBe(SAFE);
    });
});
