import { beforeAll, describe, expect, it } from 'vitest';
import { callsInFlight, type DbCall, measure, watchDb } from '../support/db-calls';
import { useStack } from '../support/use-stack';
import { type Rec } from '../support/bodies';

/**
 * What a list costs (issue 9): DynamoDB calls and items read, counted, never timed. A page reads the
 * day tallies, the page itself (plus at most the rest of its first day) and one batch of embedded
 * records, however many events come before it. Round trips count calls sent together once.
 */
const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

const DAYS = 12;
const PER_DAY = 5;
const WINDOW = 'start_date=2031-03-01&end_date=2031-03-31';
let venue: Rec;

const day = (d: number) => `2031-03-${String(d + 1).padStart(2, '0')}`;

beforeAll(async () => {
  venue = (await api.post('/venues', { venue: 'Hall', status: 'publish' }, { token: editor })).body;
  const bodies: Rec[] = [];
  for (let d = 0; d < DAYS; d++)
    for (let i = 0; i < PER_DAY; i++)
      bodies.push({
        title: `Event ${d}-${i}`,
        status: 'publish',
        start_date: `${day(d)} ${String(8 + i).padStart(2, '0')}:00:00`,
        end_date: `${day(d)} ${String(9 + i).padStart(2, '0')}:00:00`,
        venue: venue.id,
      });
  for (let i = 0; i < bodies.length; i += 6)
    await Promise.all(
      bodies.slice(i, i + 6).map(async (b) => {
        const res = await api.post('/events', b, { token: editor });
        expect(res.status).toBe(201);
      }),
    );
}, 120_000);

const queries = (calls: DbCall[], index: string) =>
  calls.filter((c) => c.command === 'QueryCommand' && c.index === index);
const itemsOf = (calls: DbCall[]) => calls.reduce((n, c) => n + c.items, 0);

/** Every ID of a list, read through the untallied path (strict dates) as the reference order. */
async function reference(filter = ''): Promise<number[]> {
  const ids: number[] = [];
  for (let p = 1; ; p++) {
    const res = await api.get(`/events?${WINDOW}&strict_dates=true&per_page=50&page=${p}${filter}`);
    expect(res.status).toBe(200);
    ids.push(...(res.body.events as Rec[]).map((e) => e.id as number));
    if (ids.length >= res.body.total) return ids;
  }
}

async function page(path: string) {
  const { result, calls, rounds } = await measure(() => api.get(path));
  expect(result.status).toBe(200);
  return { body: result.body as Rec, calls, rounds };
}

describe('deep pages through the day tallies', () => {
  it('reads the page and at most the rest of its day, not the rows before it', async () => {
    const ids = await reference();
    expect(ids).toHaveLength(DAYS * PER_DAY);

    for (const p of [1, 3, 6, 7, 12]) {
      const { body, calls } = await page(`/events?${WINDOW}&per_page=5&page=${p}`);
      expect((body.events as Rec[]).map((e) => e.id)).toEqual(ids.slice((p - 1) * 5, p * 5));
      expect(body.total).toBe(DAYS * PER_DAY);
      // Rows read from the start index: at most a day before the page, the page, and a small margin.
      expect(itemsOf(queries(calls, 'byStart'))).toBeLessThanOrEqual(PER_DAY + 5 + 25);
      expect(calls.length).toBeLessThanOrEqual(3);
    }
  });

  it('serves an odd offset inside a day the same way (per_page=7)', async () => {
    const ids = await reference();
    const lastPage = Math.ceil((DAYS * PER_DAY) / 7);
    for (const p of [2, 5, lastPage]) {
      const { body } = await page(`/events?${WINDOW}&per_page=7&page=${p}`);
      expect((body.events as Rec[]).map((e) => e.id)).toEqual(ids.slice((p - 1) * 7, p * 7));
    }
  });

  it('does the same for one venue (link index)', async () => {
    const ids = await reference(`&venue=${venue.id}`);
    expect(ids).toHaveLength(DAYS * PER_DAY);
    const { body, calls, rounds } = await page(`/events?${WINDOW}&per_page=5&page=12&venue=${venue.id}`);
    expect((body.events as Rec[]).map((e) => e.id)).toEqual(ids.slice(55, 60));
    expect(itemsOf(queries(calls, 'byAssignment'))).toBeLessThanOrEqual(PER_DAY + 5 + 25);
    expect(rounds).toBeLessThanOrEqual(3);
  });
});

describe('round trips', () => {
  let full: Rec;

  beforeAll(async () => {
    const term = async (path: string, name: string) =>
      (await api.post(path, { name }, { token: editor })).body.id as number;
    const organizer = (
      await api.post('/organizers', { organizer: 'Org', status: 'publish' }, { token: editor })
    ).body;
    const res = await api.post(
      '/events',
      {
        title: 'Everything embedded',
        status: 'publish',
        start_date: `${day(3)} 21:00:00`,
        end_date: `${day(3)} 22:00:00`,
        venue: venue.id,
        organizer: [organizer.id],
        categories: [await term('/categories', 'Embedded cat')],
        tags: [await term('/tags', 'Embedded tag')],
      },
      { token: editor },
    );
    expect(res.status).toBe(201);
    full = res.body;
  });

  it('reads a single event in at most two, by ID and by slug', async () => {
    for (const path of [`/events/${full.id}`, `/events/by-slug/${full.slug}`]) {
      const { body, calls } = await page(path);
      expect(body.venue.id).toBe(venue.id);
      expect(body.tags).toHaveLength(1);
      expect(calls.length).toBeLessThanOrEqual(2);
    }
  });

  it('reads the first page of one scope in two: its tallies with its rows, then its records', async () => {
    for (const filter of ['', `&venue=${venue.id}`]) {
      const ids = await reference(filter);
      const { body, rounds } = await page(`/events?${WINDOW}&per_page=5${filter}`);
      expect((body.events as Rec[]).map((e) => e.id)).toEqual(ids.slice(0, 5));
      expect(body.total).toBe(ids.length);
      expect(rounds).toBe(2);
    }
  });

  it('reads featured events from their own partition: page 1 in two, whatever else the window holds', async () => {
    const featured: number[] = [];
    for (const d of [2, 5, 9]) {
      const body = { title: `Featured ${d}`, status: 'publish', featured: true, venue: venue.id };
      const res = await api.post(
        '/events',
        { ...body, start_date: `${day(d)} 07:30:00`, end_date: `${day(d)} 08:30:00` },
        { token: editor },
      );
      expect(res.status).toBe(201);
      featured.push(res.body.id as number);
    }
    const ids = await reference('&featured=true');
    expect(ids).toEqual(featured);
    const { body, calls, rounds } = await page(`/events?${WINDOW}&per_page=2&featured=true`);
    expect((body.events as Rec[]).map((e) => e.id)).toEqual(featured.slice(0, 2));
    expect(body.total).toBe(3);
    expect(rounds).toBe(2);
    // Only the featured partition is read, not the window's other events.
    expect(queries(calls, 'byStart')).toEqual([]);
    expect(queries(calls, 'byAssignment').map((c) => c.partition)).toEqual(['FEATURED']);
    expect(itemsOf(queries(calls, 'byAssignment'))).toBe(3);

    // An update that unfeatures an event takes it out; featuring it again puts it back, in start order.
    const toggle = async (featuredNow: boolean) => {
      const res = await api.post(`/events/${featured[1]}`, { featured: featuredNow }, { token: editor });
      expect(res.status).toBe(200);
      const list = await page(`/events?${WINDOW}&per_page=5&featured=true`);
      return (list.body.events as Rec[]).map((e) => e.id);
    };
    expect(await toggle(false)).toEqual([featured[0], featured[2]]);
    expect(await reference('&featured=true')).toEqual([featured[0], featured[2]]);
    expect(await toggle(true)).toEqual(featured);
    // A trashed featured event leaves the list (its record stays in the partition, as in the start index).
    expect((await api.del(`/events/${featured[2]}`, { token: editor })).status).toBe(200);
    const left = await page(`/events?${WINDOW}&per_page=5&featured=true`);
    expect((left.body.events as Rec[]).map((e) => e.id)).toEqual(featured.slice(0, 2));
    expect(left.body.total).toBe(2);
  });

  it('reads the category taxonomy and the guard of a tag slug in one round trip', async () => {
    const cat = full.categories[0];
    const tag = full.tags[0];
    const bySlug = await page(`/events?${WINDOW}&categories=${cat.slug}&tags=${tag.slug}`);
    const byId = await page(`/events?${WINDOW}&categories=${cat.slug}&tags=${tag.id}`);
    for (const { body } of [bySlug, byId]) expect((body.events as Rec[]).map((e) => e.id)).toEqual([full.id]);
    expect(bySlug.rounds).toBe(byId.rounds);
  });

  it('reads page 1 of a category (by slug) with a venue in three: the taxonomy with the venue, the tallies with the rows, the records', async () => {
    const cat = full.categories[0];
    const query = `categories=${cat.slug}&venue=${venue.id}`;
    const { body, calls, rounds } = await page(`/events?${WINDOW}&${query}`);
    expect((body.events as Rec[]).map((e) => e.id)).toEqual(await reference(`&${query}`));
    expect(body.total).toBe(1);
    expect(rounds).toBe(3);
    // The rows come from the smaller filter (the category's one event), not from the venue's 60.
    expect(queries(calls, 'byAssignment').map((c) => c.partition)).toEqual([`TERM#${cat.id}`]);
  });

  it('answers an unknown target only once every read it started is done', async () => {
    watchDb();
    for (let i = 0; i < 5; i++)
      for (const path of ['tags=999999', 'tags=999999&venue=888888', `venue=888888`]) {
        const res = await api.get(`/events?${WINDOW}&${path}`);
        expect(res.status).toBe(400);
        expect(callsInFlight()).toBe(0);
      }
  });

  it('drives two filters from the smaller one and checks the other on its rows', async () => {
    const cat = full.categories[0].id;
    const { body, calls } = await page(`/events?${WINDOW}&categories=${cat}&venue=${venue.id}`);
    expect((body.events as Rec[]).map((e) => e.id)).toEqual([full.id]);
    expect(body.total).toBe(1);
    // The venue's 61 rows are not read: only the category's one.
    expect(queries(calls, 'byAssignment').map((c) => c.partition)).toEqual([`TERM#${cat}`]);
    expect(itemsOf(queries(calls, 'byAssignment'))).toBe(1);

    const none = await page(
      `/events?${WINDOW}&tags=${full.tags[0].id}&organizer=${full.organizer[0].id}&venue=${venue.id}`,
    );
    expect((none.body.events as Rec[]).map((e) => e.id)).toEqual([full.id]);
    // A tag by ID needs no read before its check, which shares a round trip with the venue's.
    const tagged = await page(`/events?${WINDOW}&tags=${full.tags[0].id}&venue=${venue.id}`);
    expect((tagged.body.events as Rec[]).map((e) => e.id)).toEqual([full.id]);
    expect(tagged.rounds).toBe(3);
    const other = await page(`/events?${WINDOW}&tags=${full.tags[0].id}&featured=true`);
    expect(other.body.events).toEqual([]);
  });

  it('reads a list page with everything embedded in at most three', async () => {
    for (const filter of ['', `&venue=${venue.id}`, `&organizer=${full.organizer[0].id}`]) {
      const { body, rounds } = await page(`/events?start_date=${day(3)}&end_date=${day(3)}${filter}`);
      expect((body.events as Rec[]).find((e) => e.id === full.id)?.categories).toHaveLength(1);
      expect(rounds).toBeLessThanOrEqual(3);
    }
  });

  // Issue 9: a create or an update is one transaction and at most three rounds of reads; the reads
  // of one round are sent together (the body's look-ups, each record once; the ID and the slugs).
  it('creates an event with every kind of link in one transaction and three rounds of reads', async () => {
    const body = {
      title: 'Everything embedded',
      status: 'publish',
      start_date: `${day(4)} 21:00:00`,
      end_date: `${day(4)} 22:00:00`,
      venue: venue.id,
      organizer: [full.organizer[0].id],
      categories: [full.categories[0].id],
      tags: [full.tags[0].id],
      description: '<p>Words for the search index</p>',
    };
    const { result, calls, rounds } = await measure(() => api.post('/events', body, { token: editor }));

    expect(result.status).toBe(201);
    expect(result.body.slug).toBe(`${full.slug}-2`);
    expect(calls.filter((c) => c.command === 'TransactWriteItemsCommand')).toHaveLength(1);
    expect(rounds).toBeLessThanOrEqual(4);
    // Each linked record is read once before the write (the checks and the resolution share reads);
    // the new slug's guard and counter are read in a call of their own, with the ID draw.
    const slugState = (c: DbCall) => c.keys!.every((pk) => /^SLUG(SEQ)?#/.test(pk));
    const lookups = calls.filter((c) => c.command === 'BatchGetItemCommand' && !slugState(c));
    expect(calls.filter((c) => c.command === 'BatchGetItemCommand' && slugState(c))).toHaveLength(1);
    expect(lookups.length).toBeLessThanOrEqual(4 + 2);
  });

  it('updates an event in one transaction and three rounds of reads (and an in-use sync when a term leaves use)', async () => {
    // [change, transactions, round trips]: a term entering or leaving use is moved by its own small
    // transaction (the category stays in use: the event created above has it too).
    const unused = (await api.post('/tags', { name: 'Round trip tag' }, { token: editor })).body.id as number;
    for (const [change, transactions, most] of [
      [{ title: 'Renamed' }, 1, 4],
      [{ tags: [unused] }, 2, 5],
      [{ tags: [] }, 2, 5],
      [{ status: 'draft' }, 1, 4],
    ] as const) {
      const { result, calls, rounds } = await measure(() =>
        api.post(`/events/${full.id}`, change, { token: editor }),
      );
      expect(result.status, JSON.stringify(change)).toBe(200);
      expect(calls.filter((c) => c.command === 'TransactWriteItemsCommand')).toHaveLength(transactions);
      expect(rounds, JSON.stringify(change)).toBeLessThanOrEqual(most);
    }
  });
});

describe('term look-ups', () => {
  // Reads of the whole tag partition (a new tag's slug claim reads only the slugs that start its own).
  const taxonomyReads = (calls: DbCall[]) =>
    calls.filter((c) => c.partition === 'TAXONOMY#post_tag' && !c.narrowed).length;

  it('filter by a tag and name tags in a write without reading the tag taxonomy', async () => {
    const tags: Rec[] = [];
    for (let i = 0; i < 12; i++)
      tags.push((await api.post('/tags', { name: `Lookup tag ${i}` }, { token: editor })).body);

    for (const ref of [tags[3]!.id, tags[3]!.slug]) {
      const { calls } = await page(`/events?${WINDOW}&tags=${ref}`);
      expect(taxonomyReads(calls)).toBe(0);
    }

    const { result, calls } = await measure(() =>
      api.post(
        '/events',
        {
          title: 'Tagged by every kind of reference',
          start_date: `${day(5)} 21:00:00`,
          end_date: `${day(5)} 22:00:00`,
          tags: [tags[0]!.id, tags[1]!.slug, 'Lookup Tag 2', 'A brand new tag'],
        },
        { token: editor },
      ),
    );
    expect(result.status).toBe(201);
    expect(taxonomyReads(calls)).toBe(0);
    const names = (result.body.tags as Rec[]).map((t) => t.name).sort();
    expect(names).toEqual(['A brand new tag', 'Lookup tag 0', 'Lookup tag 1', 'Lookup tag 2']);
  });

  it('answers 400 for an unknown tag slug or ID, as before', async () => {
    const res = await api.get(`/events?${WINDOW}&tags=no-such-tag,999999`);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('tags contains unknown IDs or slugs: no-such-tag, 999999.');
    // One unknown tag is checked while its (empty) tallies are read; it is still the first error.
    for (const path of ['tags=999999', 'tags=999999&venue=888888', 'tags=no-such-tag']) {
      const one = await api.get(`/events?${WINDOW}&${path}`);
      expect(one.status).toBe(400);
      expect(JSON.stringify(one.body)).toContain('tags contains unknown IDs or slugs:');
    }
  });

  it('reads the first page of one tag in two round trips by ID and three by slug', async () => {
    const tag = (await api.post('/tags', { name: 'Trip tag' }, { token: editor })).body;
    const made = await api.post(
      '/events',
      {
        title: 'Tagged for round trips',
        status: 'publish',
        start_date: `${day(4)} 20:00:00`,
        end_date: `${day(4)} 21:00:00`,
        tags: [tag.id],
      },
      { token: editor },
    );
    expect(made.status).toBe(201);
    for (const [ref, trips] of [
      [tag.id, 2],
      [tag.slug, 3],
    ] as const) {
      const { body, rounds } = await page(`/events?${WINDOW}&tags=${ref}`);
      expect((body.events as Rec[]).map((e) => e.id)).toEqual([made.body.id]);
      expect(rounds).toBe(trips);
    }
  });
});
