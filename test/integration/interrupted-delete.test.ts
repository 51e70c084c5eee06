import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ddb } from '../../shared/db/client';
import { useStack } from '../support/use-stack';
import { type Rec, creator } from '../support/bodies';

/**
 * An interrupted permanent delete finishes when repeated (decisions §6). The data store is made to
 * throttle the third transaction of the delete of a venue linked to 120 events (the tombstone and the
 * first unlinking step have committed by then); the same DELETE sent again finishes it. `ddb` is the
 * client instance the in-process handlers use.
 */
const WINDOW = 'start_date=2035-01-01&end_date=2035-12-31';
const EVENTS = 120;

const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

afterEach(() => vi.restoreAllMocks());

const created = creator(api, editor);

async function inBatches<T>(n: number, size: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i += size)
    out.push(...(await Promise.all(Array.from({ length: Math.min(size, n - i) }, (_, j) => make(i + j)))));
  return out;
}

const dayOf = (i: number) =>
  new Date(Date.UTC(2035, 0, 1) + (i % 200) * 86_400_000).toISOString().slice(0, 10);

async function allEvents(token?: string): Promise<Rec[]> {
  const out: Rec[] = [];
  for (let page = 1; ; page++) {
    const res = await api.get(`/events?${WINDOW}&per_page=50&page=${page}`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    out.push(...(res.body.events as Rec[]));
    if (page >= res.body.total_pages) return out;
  }
}

const throttled = () =>
  Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), {
    name: 'ThrottlingException',
    $metadata: { httpStatusCode: 400 },
  });

/**
 * Makes the `n`-th TransactWriteCommand sent from now on fail with `error()`; every other call goes
 * to the real client. Returns how many transactions were seen so far.
 */
function failNthTransaction(n: number, error: () => Error): () => number {
  const real = ddb.send.bind(ddb) as (command: unknown, ...rest: unknown[]) => Promise<unknown>;
  let seen = 0;
  vi.spyOn(ddb, 'send').mockImplementation(((command: unknown, ...rest: unknown[]) => {
    if (command instanceof TransactWriteCommand && ++seen === n) return Promise.reject(error());
    return real(command, ...rest);
  }) as never);
  return () => seen;
}

const venuesOfEvent = async (eventId: number) =>
  ((await api.get(`/venues?event=${eventId}`, { token: editor })).body.venues as Rec[]).map((v) => v.id);

describe('a permanent delete interrupted by throttling', () => {
  let venue: Rec;
  let events: Rec[];
  let venuesBefore: number;
  let first: { status: number; headers: Headers; body: Rec };
  let transactions: number;

  beforeAll(async () => {
    venue = await created('/venues', { venue: 'Fragile Hall' });
    events = await inBatches(EVENTS, 10, (i) =>
      created('/events', {
        title: `Fragile Event ${i}`,
        start_date: `${dayOf(i)} 18:00:00`,
        end_date: `${dayOf(i)} 20:00:00`,
        venue: venue.id,
      }),
    );
    venuesBefore = (await api.get('/venues?per_page=1', { token: editor })).body.total as number;
    const seen = failNthTransaction(3, throttled);

    first = await api.del(`/venues/${venue.id}?force=true`, { token: editor });

    transactions = seen();
    vi.restoreAllMocks();
  }, 180_000);

  it('answers the interrupted DELETE with 503 and Retry-After', () => {
    expect(transactions).toBeGreaterThanOrEqual(3);
    expect(first.status).toBe(503);
    expect(first.body.code).toBe('rest_service_unavailable');
    expect(first.headers.get('retry-after')).toBeTruthy();
  });

  it('already answers GET /venues/ID with 404 (the tombstone)', async () => {
    const res = await api.get(`/venues/${venue.id}`, { token: editor });

    expect(res.status).toBe(404);
    expect(res.body.code).toBe('rest-venue-not-found');
  });

  it('already makes GET /events?venue=ID a 400 naming venue', async () => {
    const res = await api.get(`/events?venue=${venue.id}&${WINDOW}`);

    expect(res.status).toBe(400);
    expect(Object.keys(res.body.data.params)).toContain('venue');
  });

  it('embeds the venue in none of its events, for visitors or editors', async () => {
    const seenByVisitors = await allEvents();
    const seenByEditors = await allEvents(editor);

    expect(seenByVisitors).toHaveLength(EVENTS);
    expect(seenByVisitors.filter((e) => JSON.stringify(e.venue) !== '[]').map((e) => e.id)).toEqual([]);
    expect(seenByEditors.filter((e) => JSON.stringify(e.venue) !== '[]').map((e) => e.id)).toEqual([]);
  });

  it('lists the venue under ?event=E for none of its events', async () => {
    const listed = await inBatches(EVENTS, 10, (i) => venuesOfEvent(events[i]!.id as number));

    expect(listed.flat()).toEqual([]);
  });

  it('neither lists nor counts the venue meanwhile', async () => {
    const list = await api.get('/venues?per_page=50', { token: editor });
    const search = await api.get('/venues?search=Fragile', { token: editor });

    expect(list.body.venues.map((v: Rec) => v.id)).not.toContain(venue.id);
    expect(list.body.total).toBe(venuesBefore - 1);
    expect(search.body.venues).toEqual([]);
  });

  describe('sent again', () => {
    let second: { status: number; body: Rec };

    beforeAll(async () => {
      second = await api.del(`/venues/${venue.id}?force=true`, { token: editor });
    }, 120_000);

    it('answers 200 with the venue', () => {
      expect(second.status).toBe(200);
      expect(second.body.id).toBe(venue.id);
      expect(second.body.venue).toBe('Fragile Hall');
    });

    it('answers GET /venues/ID with 404', async () => {
      const res = await api.get(`/venues/${venue.id}`, { token: editor });

      expect(res.status).toBe(404);
      expect(res.body.code).toBe('rest-venue-not-found');
    });

    it('leaves no event linked to the venue', async () => {
      const all = await allEvents(editor);
      const listed = await inBatches(EVENTS, 10, (i) => venuesOfEvent(events[i]!.id as number));

      expect(all).toHaveLength(EVENTS);
      expect(all.filter((e) => JSON.stringify(e.venue) !== '[]').map((e) => e.id)).toEqual([]);
      expect(listed.flat()).toEqual([]);
    });

    it('lets every former event be updated (no link to a gone record is left)', async () => {
      const updates = await inBatches(EVENTS, 10, (i) =>
        api.patch(`/events/${events[i]!.id}`, { cost: '5' }, { token: editor }),
      );

      expect(updates.filter((r) => r.status !== 200).map((r) => [r.status, r.body.code])).toEqual([]);
    });

    it('takes the venue off the venue total once', async () => {
      const res = await api.get('/venues?per_page=1', { token: editor });

      expect(res.body.total).toBe(venuesBefore - 1);
    });

    it('frees the slug: a new venue of the same name gets it back', async () => {
      const again = await created('/venues', { venue: 'Fragile Hall' });

      expect(again.slug).toBe(venue.slug);
    });
  });
});

describe('a category delete interrupted by throttling', () => {
  const CATEGORISED = 60;
  let category: Rec;
  let sibling: Rec;
  let events: Rec[];
  let first: { status: number; body: Rec };
  let second: { status: number; body: Rec };

  beforeAll(async () => {
    category = await created('/categories', { name: 'Fragile Category' });
    sibling = await created('/categories', { name: 'Sturdy Category' });
    events = await inBatches(CATEGORISED, 10, (i) =>
      created('/events', {
        title: `Categorised Fragile ${i}`,
        start_date: `${dayOf(i)} 10:00:00`,
        end_date: `${dayOf(i)} 11:00:00`,
        categories: [category.id, ...(i % 2 === 0 ? [sibling.id] : [])],
      }),
    );
    failNthTransaction(2, throttled); // the tombstone commits, the first unlinking step does not

    first = await api.del(`/categories/${category.id}`, { token: editor });

    vi.restoreAllMocks();
  }, 180_000);

  it('answers the interrupted DELETE with 503, and GET /categories/ID with 404 at once', async () => {
    const res = await api.get(`/categories/${category.id}`);

    expect(first.status).toBe(503);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('rest-category-not-found');
  });

  it('shows the category on none of its events meanwhile', async () => {
    const mine = new Set(events.map((e) => e.id as number));

    const shown = (await allEvents(editor)).filter((e) => mine.has(e.id));

    expect(shown).toHaveLength(CATEGORISED);
    expect(shown.filter((e) => e.categories.some((c: Rec) => c.id === category.id)).map((e) => e.id)).toEqual(
      [],
    );
  });

  describe('sent again', () => {
    beforeAll(async () => {
      second = await api.del(`/categories/${category.id}`, { token: editor });
    }, 120_000);

    it('answers 200 with the category', () => {
      expect(second.status).toBe(200);
      expect(second.body.id).toBe(category.id);
    });

    it('leaves the other category’s count equal to a recount', async () => {
      const mine = new Set(events.map((e) => e.id as number));
      const shown = (await allEvents()).filter((e) => mine.has(e.id));

      const count = (await api.get(`/categories/${sibling.id}`)).body.count as number;

      expect(count).toBe(shown.filter((e) => e.categories.some((c: Rec) => c.id === sibling.id)).length);
      expect(count).toBe(CATEGORISED / 2);
    });

    it('frees the name and the slug: a new category of the same name gets both', async () => {
      const again = await api.post('/categories', { name: 'Fragile Category' }, { token: editor });

      expect(again.status).toBe(201);
      expect(again.body.slug).toBe(category.slug);
    });
  });
});
