import { DeleteCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ddb, tableName } from '../../shared/db/client';
import { keys, STATUS_SHARDS } from '../../shared/db/keys';
import { rebuildTermIndex } from '../../shared/services/maintenance';
import { measure } from '../support/db-calls';
import { byName } from '../support/term-order';
import { useStack } from '../support/use-stack';
import { type Rec } from '../support/bodies';

/**
 * The default term lists (`hide_empty=true`) read their page from the in-use orders
 * (shared/repositories/term-use.ts), never the taxonomy, and answer exactly as the full read does, for
 * visitors (published events count) and editors (every non-draft event counts), through every kind of
 * event write that moves a count across zero: link, unlink, status changes, trash, restore, permanent
 * delete, a term's own delete, and many writers at once. `npm run reindex` rebuilds them.
 */
const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

type Who = 'anonymous' | 'editor';
const as = (who: Who) => (who === 'editor' ? { token: editor } : {});

/** The terms a caller sees with hide_empty=true, by the full read (orderby=id), sorted as lists sort. */
async function oracle(who: Who, collection = 'tags'): Promise<Rec[]> {
  const all: Rec[] = [];
  for (let p = 1; ; p++) {
    const res = await api.get(`/${collection}?orderby=id&per_page=50&page=${p}`, as(who));
    expect(res.status).toBe(200);
    all.push(...res.body[collection]);
    if (res.body[collection].length < 50) return all.sort(byName);
  }
}

const fullReads = (calls: Array<{ command: string; index?: string }>) =>
  calls.filter((c) => c.command === 'QueryCommand' && c.index === 'bySlug');

/** The default list, page by page, equals the full read; and it never reads the taxonomy. */
async function expectSameAsOracle(collection = 'tags') {
  for (const who of ['anonymous', 'editor'] as const) {
    const all = await oracle(who, collection);
    for (const [query, want] of [
      ['', all.slice(0, 10)],
      ['?page=2', all.slice(10, 20)],
      ['?per_page=7&page=3&order=desc', [...all].reverse().slice(14, 21)],
      [`?page=${Math.ceil(all.length / 10) + 1}`, []],
    ] as const) {
      const { result: res, calls } = await measure(() => api.get(`/${collection}${query}`, as(who)));
      expect(res.status).toBe(200);
      expect(res.body[collection], `${who} ${query}`).toEqual(want);
      expect(res.body.total, `${who} ${query}`).toBe(all.length);
      expect(fullReads(calls), `${who} ${query}`).toEqual([]);
    }
  }
}

let tagIds: number[];
const TIMES = { start_date: '2031-05-01 10:00:00', end_date: '2031-05-01 11:00:00' };

async function event(body: Rec): Promise<Rec> {
  const res = await api.post(
    '/events',
    { title: 'E', ...TIMES, status: 'publish', ...body },
    { token: editor },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

beforeAll(async () => {
  tagIds = [];
  for (let n = 0; n < 40; n += 8)
    tagIds.push(
      ...(await Promise.all(
        Array.from({ length: 8 }, async (_, i) => {
          const res = await api.post('/tags', { name: `Tag ${n + i}` }, { token: editor });
          return res.body.id as number;
        }),
      )),
    );
}, 120_000);

describe('GET /tags (hide_empty=true) from the in-use orders', () => {
  it('lists nothing while no event uses a tag', async () => {
    const res = await api.get('/tags');
    expect(res.body.tags).toEqual([]);
    expect(res.body.total).toBe(0);
    await expectSameAsOracle();
  });

  it('follows links, statuses, trash, restore and deletes, for visitors and editors', async () => {
    const published = await event({ tags: tagIds.slice(0, 15) });
    const draft = await event({ status: 'draft', tags: tagIds.slice(10, 20) });
    const pending = await event({ status: 'pending', tags: tagIds.slice(18, 24) });
    const priv = await event({ status: 'private', tags: tagIds.slice(22, 28) });
    await expectSameAsOracle();

    // Unlink some, link others.
    const upd = await api.post(`/events/${published.id}`, { tags: tagIds.slice(5, 30) }, { token: editor });
    expect(upd.status).toBe(200);
    await expectSameAsOracle();
    // Status changes move counts with no link changing.
    expect((await api.post(`/events/${draft.id}`, { status: 'publish' }, { token: editor })).status).toBe(
      200,
    );
    expect((await api.post(`/events/${pending.id}`, { status: 'draft' }, { token: editor })).status).toBe(
      200,
    );
    await expectSameAsOracle();
    // Trash and restore.
    expect((await api.del(`/events/${published.id}`, { token: editor })).status).toBe(200);
    await expectSameAsOracle();
    expect((await api.post(`/events/${published.id}`, { status: 'publish' }, { token: editor })).status).toBe(
      200,
    );
    await expectSameAsOracle();
    // Permanent delete, and a tag's own delete.
    expect((await api.del(`/events/${priv.id}?force=true`, { token: editor })).status).toBe(200);
    expect((await api.del(`/tags/${tagIds[6]}?force=true`, { token: editor })).status).toBe(200);
    await expectSameAsOracle();
    // A tag created by name inside an event write is in use from that write on.
    const inline = await event({ tags: ['Brand new tag'] });
    const listed = await api.get('/tags?per_page=50');
    expect(listed.body.tags.map((t: Rec) => t.name)).toContain('Brand new tag');
    await expectSameAsOracle();
    expect((await api.del(`/events/${inline.id}?force=true`, { token: editor })).status).toBe(200);
    await expectSameAsOracle();
  }, 120_000);

  it('drops a tag from the lists and their totals with its tombstone, before its events are unlinked', async () => {
    const tag = (await api.post('/tags', { name: 'Going away' }, { token: editor })).body.id as number;
    await event({ tags: [tag] });
    await expectSameAsOracle();
    // The delete is interrupted at its first unlinking step: the tag is tombstoned, its event still links it.
    const real = ddb.send.bind(ddb) as (command: unknown, ...rest: unknown[]) => Promise<unknown>;
    const spy = vi.spyOn(ddb, 'send').mockImplementation(((command: unknown, ...rest: unknown[]) => {
      if (
        command instanceof TransactWriteCommand &&
        JSON.stringify(command.input).includes(`LINK#TERM#${tag}`)
      )
        return Promise.reject(Object.assign(new Error('throttled'), { name: 'ThrottlingException' }));
      return real(command, ...rest);
    }) as never);
    try {
      expect((await api.del(`/tags/${tag}?force=true`, { token: editor })).status).toBe(503);
    } finally {
      spy.mockRestore();
    }

    for (const who of ['anonymous', 'editor'] as const)
      expect((await api.get('/tags?per_page=50', as(who))).body.tags.map((t: Rec) => t.id)).not.toContain(
        tag,
      );
    await expectSameAsOracle();
    expect((await api.del(`/tags/${tag}?force=true`, { token: editor })).status).toBe(200);
    await expectSameAsOracle();
  });

  it('follows renames: a tag in use moves in the order', async () => {
    const all = await oracle('anonymous');
    const first = all[0]!;
    expect((await api.post(`/tags/${first.id}`, { name: 'zzz last' }, { token: editor })).status).toBe(200);
    await expectSameAsOracle();
    expect((await oracle('anonymous')).at(-1)!.id).toBe(first.id);
  });

  it('stays exact when many writers link and unlink the same tags at once', async () => {
    const shared = tagIds.slice(30, 33);
    const made = await Promise.all(Array.from({ length: 12 }, () => event({ tags: shared })));
    await expectSameAsOracle();
    // Half of them leave; then all of them, some trashed and some deleted, at once.
    await Promise.all(
      made.slice(0, 6).map((e) => api.post(`/events/${e.id}`, { tags: [] }, { token: editor })),
    );
    await expectSameAsOracle();
    await Promise.all(
      made.slice(6).map((e, i) => api.del(`/events/${e.id}${i % 2 ? '?force=true' : ''}`, { token: editor })),
    );
    await expectSameAsOracle();
    const names = (await oracle('anonymous')).map((t) => t.id);
    for (const id of shared) expect(names).not.toContain(id);
  }, 120_000);

  it('costs its page: the totals and one page of the in-use order', async () => {
    const { result, calls, items, rounds } = await measure(() => api.get('/tags'));
    expect(result.status).toBe(200);
    expect(fullReads(calls)).toEqual([]);
    expect(rounds).toBeLessThanOrEqual(2);
    expect(items).toBeLessThanOrEqual(10 + STATUS_SHARDS);
  });

  it('npm run reindex rebuilds the in-use orders and totals from the counts', async () => {
    const want = await oracle('editor');
    // A table written before the in-use orders: no flags, no totals of terms in use.
    await Promise.all(
      tagIds.map((id) =>
        ddb
          .send(
            new UpdateCommand({
              TableName: tableName(),
              Key: keys.term(id),
              UpdateExpression: 'REMOVE gsi3pk, gsi4pk, gsi3sk, gsi4sk',
              ConditionExpression: 'attribute_exists(pk)',
            }),
          )
          .catch(() => undefined),
      ),
    );
    for (let s = 0; s < STATUS_SHARDS; s++)
      await ddb.send(new DeleteCommand({ TableName: tableName(), Key: keys.termTotals('post_tag', s) }));
    expect((await api.get('/tags', { token: editor })).body.tags).toEqual([]);

    await rebuildTermIndex();

    expect(await oracle('editor')).toEqual(want);
    await expectSameAsOracle();
  }, 120_000);
});

describe('GET /categories (hide_empty=true)', () => {
  it('answers as the full read does, with nested archive URLs', async () => {
    const top = (await api.post('/categories', { name: 'Music' }, { token: editor })).body;
    const mid = (await api.post('/categories', { name: 'Jazz', parent: top.id }, { token: editor })).body;
    const leaf = (await api.post('/categories', { name: 'Bebop', parent: mid.id }, { token: editor })).body;
    await api.post('/categories', { name: 'Unused' }, { token: editor });
    await event({ categories: [leaf.id] });
    await event({ status: 'draft', categories: [top.id] });

    const res = await api.get('/categories');
    expect(res.body.categories.map((c: Rec) => c.name)).toEqual(['Bebop']);
    expect(res.body.categories[0].url).toMatch(/\/music\/jazz\/bebop\/$/);
    await expectSameAsOracle('categories');
  });
});
