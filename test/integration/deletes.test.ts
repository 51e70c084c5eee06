import { beforeAll, describe, expect, it } from 'vitest';
import { useStack } from '../support/use-stack';
import { type Rec } from '../support/bodies';

/**
 * Permanent deletes of any size (decisions §6): a venue linked to 500 events and a category linked to
 * 35 are deleted with one request each; callers see them gone at once, their events lose them, and
 * the other terms' counts equal a recount of the events.
 */
const ALL_TIME = 'start_date=1970-01-02&end_date=2100-01-01';

const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

const created = async (path: string, body: Rec): Promise<Rec> => {
  const res = await api.post(path, body, { token: editor });
  expect(res.status, `POST ${path} ${JSON.stringify(res.body)}`).toBe(201);
  return res.body as Rec;
};

/** Runs `make(0..n-1)` with at most `size` requests in flight, in order of index. */
async function inBatches<T>(n: number, size: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i += size)
    out.push(...(await Promise.all(Array.from({ length: Math.min(size, n - i) }, (_, j) => make(i + j)))));
  return out;
}

/** The i-th day of `year`, cycling through its first 300 days, as `YYYY-MM-DD`. */
const dayOf = (year: number, i: number) =>
  new Date(Date.UTC(year, 0, 1) + (i % 300) * 86_400_000).toISOString().slice(0, 10);

/** Every event of a list query, paging with per_page=50. */
async function allEvents(query: string, token?: string): Promise<Rec[]> {
  const out: Rec[] = [];
  for (let page = 1; ; page++) {
    const res = await api.get(`/events?${query}&per_page=50&page=${page}`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    out.push(...(res.body.events as Rec[]));
    if (page >= res.body.total_pages) return out;
  }
}

describe('permanently deleting a venue linked to 500 events', () => {
  const window = 'start_date=2032-01-01&end_date=2032-12-31';
  let venue: Rec;
  let events: Rec[];
  let sample: number[];
  let before: Rec[];
  let res: { status: number; body: Rec };

  // Arrange and act once: 500 events are the expensive part (batches of 10 in flight).
  beforeAll(async () => {
    venue = await created('/venues', { venue: 'Mass Hall', city: 'Springfield' });
    events = await inBatches(500, 10, (i) =>
      created('/events', {
        title: `Mass Event ${i}`,
        start_date: `${dayOf(2032, i)} 18:00:00`,
        end_date: `${dayOf(2032, i)} 20:00:00`,
        venue: venue.id,
      }),
    );
    expect((await api.get(`/events?venue=${venue.id}&${window}&per_page=1`)).body.total).toBe(500);
    sample = [...events.slice(0, 5), ...events.slice(-5)].map((e) => e.id as number);
    before = (await api.get(`/events?include=${sample.join(',')}&per_page=50`)).body.events as Rec[];

    res = await api.del(`/venues/${venue.id}?force=true`, { token: editor });
  }, 300_000);

  it('answers 200 with the venue', () => {
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(venue.id);
    expect(res.body.venue).toBe('Mass Hall');
    expect(res.body.city).toBe('Springfield');
  });

  it('answers GET /venues/ID with 404 rest-venue-not-found', async () => {
    const gone = await api.get(`/venues/${venue.id}`);

    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('rest-venue-not-found');
  });

  it('makes GET /events?venue=ID a 400 naming venue', async () => {
    const filter = await api.get(`/events?venue=${venue.id}&${window}`);

    expect(filter.status).toBe(400);
    expect(Object.keys(filter.body.data.params)).toContain('venue');
  });

  it('leaves every one of the 500 events with venue []', async () => {
    const after = await allEvents(window);

    expect(after).toHaveLength(500);
    expect(after.filter((e) => JSON.stringify(e.venue) !== '[]').map((e) => e.id)).toEqual([]);
  });

  it('changes nothing else of the events (GET /events?include=…)', async () => {
    const included = await api.get(`/events?include=${sample.join(',')}&per_page=50`);

    expect(included.status).toBe(200);
    expect(included.body.events).toEqual(before.map((e) => ({ ...e, venue: [] })));
  });
});

describe('deleting a category linked to 35 events', () => {
  const t: Record<string, Rec> = {};
  let events: Rec[];
  let res: { status: number; body: Rec };

  beforeAll(async () => {
    t.doomed = await created('/categories', { name: 'Doomed Category' });
    t.even = await created('/categories', { name: 'Even Category' });
    t.third = await created('/categories', { name: 'Third Category' });
    t.odd = await created('/tags', { name: 'Odd Tag' });
    t.fifth = await created('/tags', { name: 'Fifth Tag' });
    events = await inBatches(35, 25, (i) =>
      created('/events', {
        title: `Categorised Event ${i}`,
        start_date: `${dayOf(2033, i)} 10:00:00`,
        end_date: `${dayOf(2033, i)} 11:00:00`,
        categories: [
          t.doomed!.id,
          ...(i % 2 === 0 ? [t.even!.id] : []),
          ...(i % 3 === 0 ? [t.third!.id] : []),
        ],
        tags: [...(i % 2 === 1 ? [t.odd!.id] : []), ...(i % 5 === 0 ? [t.fifth!.id] : [])],
      }),
    );
    expect((await api.get(`/categories/${t.doomed.id}`)).body.count).toBe(35);

    res = await api.del(`/categories/${t.doomed.id}`, { token: editor });
  }, 120_000);

  it('answers 200 with the category', () => {
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(t.doomed!.id);
    expect(res.body.name).toBe('Doomed Category');
  });

  it('answers GET /categories/ID with 404 rest-category-not-found', async () => {
    const gone = await api.get(`/categories/${t.doomed!.id}`);

    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('rest-category-not-found');
  });

  it('takes it off every event and leaves their other categories', async () => {
    const mine = new Set(events.map((e) => e.id as number));

    const after = (await allEvents(ALL_TIME)).filter((e) => mine.has(e.id));

    expect(after).toHaveLength(35);
    const ids = (e: Rec) => (e.categories as Rec[]).map((c) => c.id as number).sort((a, b) => a - b);
    expect(after.map(ids)).toEqual(
      after.map((e) => {
        const i = Number(String(e.title).replace('Categorised Event ', ''));
        return [...(i % 2 === 0 ? [t.even!.id] : []), ...(i % 3 === 0 ? [t.third!.id] : [])].sort(
          (a, b) => a - b,
        );
      }),
    );
  });

  it('leaves every category and tag count equal to a recount of the events', async () => {
    const recount = new Map<number, number>();
    for (const e of await allEvents(ALL_TIME))
      for (const term of [...e.categories, ...e.tags] as Rec[])
        recount.set(term.id, (recount.get(term.id) ?? 0) + 1);

    const categories = (await api.get('/categories?hide_empty=false&per_page=50')).body.categories as Rec[];
    const tags = (await api.get('/tags?hide_empty=false&per_page=50')).body.tags as Rec[];

    expect(categories.map((c) => c.id)).not.toContain(t.doomed!.id);
    const listed = Object.fromEntries([...categories, ...tags].map((x) => [x.id, x.count]));
    const counted = Object.fromEntries([...categories, ...tags].map((x) => [x.id, recount.get(x.id) ?? 0]));
    expect(listed).toEqual(counted);
    expect([t.even, t.third, t.odd, t.fifth].map((x) => listed[x!.id])).toEqual([18, 12, 17, 7]);
  });
});
