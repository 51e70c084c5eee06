import { beforeAll, describe, expect, it } from 'vitest';
import { useStack } from '../support/use-stack';
import { type Rec, creator } from '../support/bodies';

/**
 * Writes under concurrency (decisions §6): concurrent claims of one slug give `x`, `x-2`, … and never
 * an error; event creates racing the permanent delete of a record they link leave no event stuck
 * with a link to a record that is gone.
 */
const WHEN = { start_date: '2037-06-01 19:00:00', end_date: '2037-06-01 22:00:00' };
const ROUNDS = 4;
const RACERS = 5;

const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

type Reply = { status: number; body: Rec };

const created = creator(api, editor);

const pause = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/** `base`, `base-2`, … `base-n`, sorted as strings. */
const dense = (base: string, n: number) =>
  [base, ...Array.from({ length: n - 1 }, (_, i) => `${base}-${i + 2}`)].sort();

const summary = (replies: Reply[]) => replies.map((r) => `${r.status} ${r.body?.code ?? ''}`.trim());

describe('concurrent creates of one name', () => {
  it(
    'gives 40 concurrent venues 201 and the slugs crowded-hall … crowded-hall-40',
    { timeout: 120_000 },
    async () => {
      const replies = await Promise.all(
        Array.from({ length: 40 }, () => api.post('/venues', { venue: 'Crowded Hall' }, { token: editor })),
      );

      expect(summary(replies).filter((s) => s !== '201')).toEqual([]);
      expect(replies.map((r) => r.body.slug).sort()).toEqual(dense('crowded-hall', 40));
    },
  );

  it('gives 20 concurrent events of one title 201 and 20 distinct slugs', { timeout: 120_000 }, async () => {
    const replies = await Promise.all(
      Array.from({ length: 20 }, () =>
        api.post('/events', { ...WHEN, title: 'Crowded Night' }, { token: editor }),
      ),
    );

    expect(summary(replies).filter((s) => s !== '201')).toEqual([]);
    expect(replies.map((r) => r.body.slug).sort()).toEqual(dense('crowded-night', 20));
  });
});

/**
 * `RACERS` event creates naming a record, and its permanent delete sent ~50 ms later, for `ROUNDS`
 * rounds; then every event that was created is read, updated and deleted.
 */
function raceWithDelete(o: {
  label: string;
  make: (round: number) => Promise<Rec>;
  link: (record: Rec) => Rec;
  remove: (record: Rec) => Promise<Reply>;
  linkedIds: (event: Rec) => number[];
}) {
  const records: Rec[] = [];
  const creates: Reply[] = [];
  const deletes: Reply[] = [];
  const reads: Reply[] = [];
  const updates: Reply[] = [];
  const trashes: Reply[] = [];
  const purges: Reply[] = [];

  beforeAll(async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const record = await o.make(round);
      records.push(record);
      const racing = Array.from({ length: RACERS }, (_, i) =>
        api.post(
          '/events',
          { ...WHEN, title: `${o.label} ${round}.${i}`, ...o.link(record) },
          { token: editor },
        ),
      );
      await pause(50);
      deletes.push(await o.remove(record));
      creates.push(...(await Promise.all(racing)));
    }
    const events = creates.filter((r) => r.status === 201).map((r) => r.body.id as number);
    for (const id of events) reads.push(await api.get(`/events/${id}`, { token: editor }));
    for (const id of events)
      updates.push(
        await api.patch(`/events/${id}`, { title: `${o.label} updated ${id}` }, { token: editor }),
      );
    for (const id of events) trashes.push(await api.del(`/events/${id}`, { token: editor }));
    for (const id of events) purges.push(await api.del(`/events/${id}?force=true`, { token: editor }));
  }, 240_000);

  it('deletes the record every round (200)', () => {
    expect(summary(deletes)).toEqual(Array.from({ length: ROUNDS }, () => '200'));
  });

  it('answers every racing create with 201 or a 400, never an error of the service', () => {
    const allowed = new Set(['201', '400 rest_invalid_param']);

    expect(summary(creates).filter((s) => !allowed.has(s))).toEqual([]);
  });

  it('shows the deleted record in no event', () => {
    const gone = new Set(records.map((r) => r.id as number));

    expect(summary(reads).filter((s) => s !== '200')).toEqual([]);
    expect(reads.flatMap((r) => o.linkedIds(r.body)).filter((id) => gone.has(id))).toEqual([]);
  });

  it('lets every event created in the race be updated (no rest_linked_gone later)', () => {
    expect(summary(updates).filter((s) => s !== '200')).toEqual([]);
  });

  it('lets every event created in the race be trashed and then deleted for good', () => {
    expect(summary(trashes).filter((s) => s !== '200')).toEqual([]);
    expect(summary(purges).filter((s) => s !== '200')).toEqual([]);
  });
}

describe('event creates racing DELETE /categories/ID', () => {
  raceWithDelete({
    label: 'Category Racer',
    make: (round) => created('/categories', { name: `Contested Category ${round}` }),
    link: (category) => ({ categories: [category.id] }),
    remove: (category) => api.del(`/categories/${category.id}`, { token: editor }),
    linkedIds: (event) => (event.categories as Rec[]).map((c) => c.id as number),
  });
});

describe('event creates racing DELETE /venues/ID?force=true', () => {
  raceWithDelete({
    label: 'Venue Racer',
    make: (round) => created('/venues', { venue: `Contested Venue ${round}` }),
    link: (venue) => ({ venue: venue.id }),
    remove: (venue) => api.del(`/venues/${venue.id}?force=true`, { token: editor }),
    linkedIds: (event) => [event.venue].flat().map((v: Rec) => v.id as number),
  });
});
