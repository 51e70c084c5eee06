import { beforeAll, describe, expect, it } from 'vitest';
import { useStack } from '../support/use-stack';
import { type Rec } from '../support/bodies';

/**
 * Event `search` matches word starts (decisions §8): every word of the query must start a word of the
 * title, excerpt or description, case- and accent-insensitively; HTML tags are not words.
 */
const WHEN = { start_date: '2038-02-14 20:00:00', end_date: '2038-02-14 23:00:00' };
const WINDOW = 'start_date=2038-01-01&end_date=2038-12-31';

const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

let cafe: Rec;
let other: Rec;

beforeAll(async () => {
  const create = async (body: Rec) => {
    const res = await api.post('/events', { ...WHEN, ...body }, { token: editor });
    expect(res.status).toBe(201);
    return res.body as Rec;
  };
  cafe = await create({
    title: 'Café Jazzy Nights',
    description: '<p>Live <b>music</b></p>',
    excerpt: 'Saxophone evenings',
  });
  other = await create({ title: 'Quiet Reading Hour', description: '<p>Books and tea</p>' });
});

const found = async (search: string) => {
  const res = await api.get(`/events?${WINDOW}&search=${encodeURIComponent(search)}`);
  expect(res.status).toBe(200);
  return (res.body.events as Rec[]).map((e) => e.id as number);
};

describe('event search by word start (decisions §8)', () => {
  it.each(['cafe', 'CAFÉ', 'Café', 'jazz', 'jazzy nights', 'NIGHTS jazzy', 'mus', 'live music'])(
    'finds the event for %j',
    async (search) => {
      expect(await found(search)).toEqual([cafe.id]);
    },
  );

  it.each(['azz', 'afe', 'usic', 'ights', 'jazz quiet'])('does not find it for %j', async (search) => {
    expect(await found(search)).not.toContain(cafe.id);
  });

  it('searches the excerpt too', async () => {
    expect(await found('saxo')).toEqual([cafe.id]);
    expect(await found('evening')).toEqual([cafe.id]);
  });

  it('does not match the markup of the description', async () => {
    expect(await found('b')).not.toContain(cafe.id);
    expect(await found('p')).not.toContain(cafe.id);
  });

  it('finds another event by its own words only', async () => {
    expect(await found('books')).toEqual([other.id]);
    expect(await found('quiet read')).toEqual([other.id]);
  });
});
