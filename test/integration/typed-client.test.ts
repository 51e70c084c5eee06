import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CalApiError } from '../../client/src';
import { aCategory, anEvent, anOrganizer, aTag, aVenue } from '../support/bodies';
import { useStack } from '../support/use-stack';

/**
 * The typed client (client/) against the real API: the calls its users make, the answers checked
 * against /doc as every test's are. What it sends and how it reads answers is unit-tested with a stub
 * fetch (test/unit/client.test.ts).
 */
const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

describe('the typed client', () => {
  it('creates each kind of record from the builders, and reads it back by id', async () => {
    const { client } = api;
    const venue = (await client.createVenue({ body: aVenue({ city: 'Oslo' }), token: editor })).data;
    const organizer = (await client.createOrganizer({ body: anOrganizer(), token: editor })).data;
    const category = (await client.createCategory({ body: aCategory(), token: editor })).data;
    const tag = (await client.createTag({ body: aTag(), token: editor })).data;
    const made = await client.createEvent({
      body: anEvent({
        venue: venue.id,
        organizer: [organizer.id],
        categories: [category.id],
        tags: [tag.id],
      }),
      token: editor,
    });

    const read = await client.getEvent({ path: { id: made.data.id } });

    expect(made.status).toBe(201);
    expect(read.data).toMatchObject({
      id: made.data.id,
      venue: { id: venue.id },
      organizer: [{ id: organizer.id }],
      categories: [{ id: category.id }],
      tags: [{ id: tag.id }],
    });
    expect(read.etag).toMatch(/^"\d+-\d+-/);
  });

  it('replays a create sent again with the same Idempotency-Key', async () => {
    const body = aVenue();
    const idempotencyKey = randomUUID();

    const first = await api.client.createVenue({ body, idempotencyKey, token: editor });
    const again = await api.client.createVenue({ body, idempotencyKey, token: editor });

    expect(again.data.id).toBe(first.data.id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('throws a CalApiError with the envelope when If-Match names an older version', async () => {
    const { data: tag, etag } = await api.client.createTag({ body: aTag(), token: editor });
    await api.client.updateTag({ path: { id: tag.id }, body: { description: 'newer' }, token: editor });

    const stale = await api.client
      .updateTag({ path: { id: tag.id }, body: { description: 'older' }, ifMatch: etag, token: editor })
      .catch((e: unknown) => e);

    expect(stale).toBeInstanceOf(CalApiError);
    expect(stale).toMatchObject({
      status: 412,
      code: 'rest_precondition_failed',
      body: { data: { status: 412 } },
    });
  });

  it('pages a list over next_rest_url to its end', async () => {
    const city = `Pagetown ${randomUUID()}`;
    const ids: number[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await api.client.createVenue({ body: aVenue({ city }), token: editor })).data.id);

    const pages = [];
    for await (const page of api.client.pages('listVenues', { query: { per_page: 2 } })) pages.push(page);
    const seen = pages.flatMap((p) => p.venues.map((v) => v.id));

    expect(pages.length).toBeGreaterThan(1);
    expect(seen).toEqual(expect.arrayContaining(ids));
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('throws a refused body as a CalApiError naming the parameter', async () => {
    const refused = await api.client
      .createTag({ body: { name: '' }, token: editor })
      .catch((e: unknown) => e);

    expect(refused).toBeInstanceOf(CalApiError);
    expect(refused).toMatchObject({ status: 400, body: { data: { params: { name: expect.any(String) } } } });
  });

  it('sends no token unless asked, so a write without one is refused', async () => {
    await expect(api.client.createTag({ body: aTag() })).rejects.toMatchObject({ status: 401 });
  });
});
