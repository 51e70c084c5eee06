import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ddb } from '../../shared/db/client';
import { useStack } from '../support/use-stack';
import { type Rec } from '../support/bodies';

/**
 * Every event write is atomic (decisions §6, §7): the event, the inline venues and the terms it
 * creates land together or not at all. Failures are injected into the client instance the in-process
 * handlers use (`ddb`), passing every other call through to DynamoDB Local.
 */
const WHEN = { start_date: '2036-05-01 19:00:00', end_date: '2036-05-01 22:00:00' };
const ALL_STATUSES = 'status=publish,future,draft,pending,private,trash';

const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

afterEach(() => vi.restoreAllMocks());

const throttledTransaction = () =>
  new TransactionCanceledException({
    message:
      'Transaction cancelled, please refer cancellation reasons for specific reasons [ThrottlingError]',
    $metadata: {},
    CancellationReasons: [{ Code: 'ThrottlingError' }],
  });

/**
 * Spies on the handlers' client: the `fail`-th TransactWriteCommand from now on (none when undefined)
 * of an event write is rejected with `error()`, every other call goes through. Returns how many
 * transactions of event writes were sent.
 */
function watchTransactions(fail?: number, error: () => Error = throttledTransaction): () => number {
  const real = ddb.send.bind(ddb) as (command: unknown, ...rest: unknown[]) => Promise<unknown>;
  let seen = 0;
  vi.spyOn(ddb, 'send').mockImplementation(((command: unknown, ...rest: unknown[]) => {
    if (command instanceof TransactWriteCommand && !isInUseSync(command) && ++seen === fail)
      return Promise.reject(error());
    return real(command, ...rest);
  }) as never);
  return () => seen;
}

/**
 * The terms-in-use sync that follows a committed write (shared/repositories/term-use.ts): its own
 * transactions, after the write's, and not part of it.
 */
const isInUseSync = (command: TransactWriteCommand) =>
  (command.input.TransactItems ?? []).every(
    (i) => i.Update && /gsi[34]pk|inUse/.test(JSON.stringify(i.Update)),
  );

/** Every term of a taxonomy (hide_empty=false), paging through the list. */
async function allTerms(path: '/tags' | '/categories', query = ''): Promise<Rec[]> {
  const out: Rec[] = [];
  for (let page = 1; ; page++) {
    const res = await api.get(`${path}?hide_empty=false&per_page=50&page=${page}${query}`, { token: editor });
    expect(res.status).toBe(200);
    const items = res.body[path.slice(1)] as Rec[];
    out.push(...items);
    if (items.length < 50) return out;
  }
}

const storedEvents = async () =>
  (
    await api.get(`/events?${ALL_STATUSES}&start_date=1970-01-02&end_date=2100-01-01&per_page=1`, {
      token: editor,
    })
  ).body.total as number;

const names = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${prefix} ${String(i + 1).padStart(2, '0')}`);
const slugOf = (name: string) => name.toLowerCase().replace(/ /g, '-');

describe('an event naming more new tags than an event may link (decisions §7)', () => {
  it('answers 400 naming tags and the limit of 30', async () => {
    const res = await api.post(
      '/events',
      { ...WHEN, title: 'Too Many Tags', tags: names('Overflow Tag', 33) },
      { token: editor },
    );

    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect(Object.keys(res.body.data.params)).toEqual(['tags']);
    expect(res.body.data.params.tags).toContain('30');
  });

  it('creates none of the tags', async () => {
    await api.post(
      '/events',
      { ...WHEN, title: 'Too Many Tags Again', tags: names('Spill Tag', 33) },
      { token: editor },
    );

    expect(await allTerms('/tags', '&search=spill')).toEqual([]);
  });
});

describe('an event write with an inline venue and new categories whose transaction fails', () => {
  const body = {
    ...WHEN,
    title: 'Phantom Gala',
    venue: { venue: 'Phantom Pavilion', city: 'Nowhere' },
    categories: ['Phantom Cat One', 'Phantom Cat Two'],
  };

  it('answers 503', async () => {
    watchTransactions(1);

    const res = await api.post('/events', { ...body, title: 'Phantom Gala 503' }, { token: editor });

    expect(res.status).toBe(503);
    expect(res.body.code).toBe('rest_service_unavailable');
  });

  it('leaves no venue, no category and no event behind', async () => {
    const eventsBefore = await storedEvents();
    const sent = watchTransactions(1);

    await api.post('/events', body, { token: editor });

    vi.restoreAllMocks();
    expect(sent()).toBe(1);
    const venues = await api.get(`/venues?${ALL_STATUSES}&search=Phantom`, { token: editor });
    expect(venues.body.venues).toEqual([]);
    expect(await allTerms('/categories', '&search=phantom')).toEqual([]);
    expect(await storedEvents()).toBe(eventsBefore);
  });

  it('succeeds when sent again, creating the venue and the categories once', async () => {
    const again = { ...body, title: 'Phantom Gala Again', venue: { venue: 'Phantom Arena' } };
    watchTransactions(1);
    expect((await api.post('/events', again, { token: editor })).status).toBe(503);
    vi.restoreAllMocks();

    const res = await api.post('/events', again, { token: editor });

    expect(res.status).toBe(201);
    const venues = await api.get(`/venues?${ALL_STATUSES}&search=${encodeURIComponent('Phantom Arena')}`, {
      token: editor,
    });
    expect(venues.body.venues.map((v: Rec) => v.id)).toEqual([res.body.venue.id]);
    const categories = await allTerms('/categories', '&search=phantom');
    expect(categories.map((c) => c.name).sort()).toEqual(['Phantom Cat One', 'Phantom Cat Two']);
    expect(res.body.categories.map((c: Rec) => c.id).sort()).toEqual(categories.map((c) => c.id).sort());
    expect(categories.map((c) => c.slug).sort()).toEqual(['phantom-cat-one', 'phantom-cat-two']);
  });
});

describe('an event write of more than 100 items whose last transaction fails', () => {
  /** The TransactWriteCommands a create with 30 new tags sends, counted on a request that succeeds. */
  async function transactionsOfA30TagCreate(): Promise<number> {
    const sent = watchTransactions();
    const res = await api.post(
      '/events',
      {
        ...WHEN,
        title: 'Calibration',
        tags: names(`Calibration ${Math.random().toString(36).slice(2, 8)}`, 30),
      },
      { token: editor },
    );
    vi.restoreAllMocks();
    expect(res.status).toBe(201);
    return sent();
  }

  it('is written in several transactions (the multi-step path)', async () => {
    expect(await transactionsOfA30TagCreate()).toBeGreaterThan(1);
  });

  it('answers 503 and leaves no tag, no count and no event behind', async () => {
    const steps = await transactionsOfA30TagCreate();
    const tagsBefore = await allTerms('/tags');
    const eventsBefore = await storedEvents();
    watchTransactions(steps);

    const res = await api.post(
      '/events',
      { ...WHEN, title: 'Undone', tags: names('Undone Tag', 30) },
      { token: editor },
    );

    vi.restoreAllMocks();
    expect(res.status).toBe(503);
    expect(await allTerms('/tags', '&search=undone')).toEqual([]);
    expect(await allTerms('/tags')).toEqual(tagsBefore);
    expect(await storedEvents()).toBe(eventsBefore);
  });

  it('frees every name and slug: the same request sent again creates the 30 tags as named', async () => {
    const steps = await transactionsOfA30TagCreate();
    const body = { ...WHEN, title: 'Redone', tags: names('Redone Tag', 30) };
    watchTransactions(steps);
    expect((await api.post('/events', body, { token: editor })).status).toBe(503);
    vi.restoreAllMocks();

    const res = await api.post('/events', body, { token: editor });

    expect(res.status).toBe(201);
    const tags = res.body.tags as Rec[];
    expect(tags.map((t) => t.name).sort()).toEqual(names('Redone Tag', 30));
    expect(tags.map((t) => t.slug).sort()).toEqual(names('Redone Tag', 30).map(slugOf));
    expect((await allTerms('/tags', '&search=redone')).map((t) => t.slug).sort()).toEqual(
      names('Redone Tag', 30).map(slugOf),
    );
  });
});
