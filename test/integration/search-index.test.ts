import { beforeAll, describe, expect, it } from 'vitest';
import { deleteWordItems, putWordItems, storedWords, wordItem } from '../../shared/repositories/search-index';
import { rebuildSearchIndex } from '../../shared/services/maintenance';
import { measure } from '../support/db-calls';
import { useStack } from '../support/use-stack';
import { type Rec } from '../support/bodies';

/**
 * The search index (issue 9): `search=` reads the words its query words start and the matching events,
 * not every event of the window; event writes keep it current and `npm run reindex` rebuilds it.
 */
const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

const WINDOW = 'start_date=2032-05-01&end_date=2032-05-31';
let venue: Rec;
let rare: Rec[] = [];

async function create(body: Rec): Promise<Rec> {
  const res = await api.post(
    '/events',
    { status: 'publish', start_date: '2032-05-10 10:00:00', end_date: '2032-05-10 11:00:00', ...body },
    { token: editor },
  );
  expect(res.status).toBe(201);
  return res.body;
}

async function fillers(n: number, from: number) {
  for (let i = 0; i < n; i += 8)
    await Promise.all(
      Array.from({ length: Math.min(8, n - i) }, (_, k) =>
        create({
          title: `Concert number ${from + i + k}`,
          description: '<p>Music and more music, every week.</p>',
          start_date: `2032-05-${String(((from + i + k) % 28) + 1).padStart(2, '0')} 18:00:00`,
          end_date: `2032-05-${String(((from + i + k) % 28) + 1).padStart(2, '0')} 20:00:00`,
        }),
      ),
    );
}

const ids = (body: Rec) => (body.events as Rec[]).map((e) => e.id as number);

async function search(query: string, extra = '') {
  const { result, calls, rounds, items } = await measure(() =>
    api.get(`/events?${WINDOW}&search=${encodeURIComponent(query)}${extra}`),
  );
  expect(result.status).toBe(200);
  return { body: result.body as Rec, calls, rounds, items };
}

beforeAll(async () => {
  venue = (await api.post('/venues', { venue: 'Harbour', status: 'publish' }, { token: editor })).body;
  rare = [
    await create({
      title: 'Zanzibar drums',
      start_date: '2032-05-03 10:00:00',
      end_date: '2032-05-03 12:00:00',
    }),
    await create({ title: 'Evening', excerpt: 'From <em>Zanzibar</em> with love', venue: venue.id }),
  ];
  await fillers(24, 0);
}, 120_000);

describe('search reads its matches, not the calendar', () => {
  it('costs the same before and after the calendar grows', async () => {
    const before = await search('zanzi');
    expect(ids(before.body)).toEqual(rare.map((e) => e.id));
    expect(before.rounds).toBeLessThanOrEqual(3);

    await fillers(40, 24);

    const after = await search('zanzi');
    expect(ids(after.body)).toEqual(rare.map((e) => e.id));
    expect(after.calls.length).toBe(before.calls.length);
    expect(after.items).toBe(before.items);
    expect(after.items).toBeLessThan(10);
  });

  it('counts every match in the total, and pages them', async () => {
    const { body } = await search('concert num', '&per_page=10&page=2');
    expect(body.total).toBe(64);
    expect(body.events).toHaveLength(10);
  });

  it('combines the index with link filters, checked on the records', async () => {
    const { body } = await search('zanzibar', `&venue=${venue.id}`);
    expect(ids(body)).toEqual([rare[1]!.id]);
  });

  it('falls back to reading the window for one-character queries', async () => {
    const { body } = await search('z');
    expect(ids(body)).toEqual(rare.map((e) => e.id));
  });
});

describe('the index follows the event', () => {
  it('drops words a text loses and adds the new ones', async () => {
    const e = await create({ title: 'Xylophone workshop' });
    expect(ids((await search('xylo')).body)).toEqual([e.id]);

    const res = await api.post(`/events/${e.id}`, { title: 'Marimba workshop' }, { token: editor });
    expect(res.status).toBe(200);

    expect(ids((await search('xylo')).body)).toEqual([]);
    expect(ids((await search('marim')).body)).toEqual([e.id]);
    expect(await storedWords(e.id)).toEqual(['marimba', 'workshop']);
  });

  it('keeps the words of a trashed event and removes them when it is deleted for good', async () => {
    const e = await create({ title: 'Quokka parade' });
    expect((await api.del(`/events/${e.id}`, { token: editor })).status).toBe(200);
    expect(await storedWords(e.id)).toEqual(['parade', 'quokka']);

    expect((await api.del(`/events/${e.id}?force=true`, { token: editor })).status).toBe(200);
    expect(await storedWords(e.id)).toEqual([]);
  });
});

describe('npm run reindex (rebuildSearchIndex)', () => {
  it('restores lost words and removes stale ones', async () => {
    const [first, second] = rare;
    await deleteWordItems(first!.id, await storedWords(first!.id));
    await putWordItems([wordItem(second!.id, 'ghostword')]);
    expect(ids((await search('zanzibar')).body)).toEqual([second!.id]);
    expect(ids((await search('ghostword')).body)).toEqual([]); // the records still decide

    const report = await rebuildSearchIndex();

    expect(report).toMatchObject({ added: 2, removed: 1 });
    expect(report.events).toBeGreaterThanOrEqual(66);
    expect(ids((await search('zanzibar')).body)).toEqual(rare.map((e) => e.id));
    expect(await storedWords(second!.id)).not.toContain('ghostword');
    expect(await rebuildSearchIndex()).toMatchObject({ added: 0, removed: 0 });
  });
});
