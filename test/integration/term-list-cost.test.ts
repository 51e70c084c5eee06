import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ddb, tableName } from '../../shared/db/client';
import { keys, STATUS_SHARDS } from '../../shared/db/keys';
import { rebuildTermIndex } from '../../shared/services/maintenance';
import { measure } from '../support/db-calls';
import { byName } from '../support/term-order';
import { useStack } from '../support/use-stack';
import { type Rec } from '../support/bodies';

/**
 * What a term list costs (issue 9): `GET /tags?hide_empty=false` (every term, by name) reads its page
 * from the name index and the taxonomy's totals, so its items read and round trips stay the same from
 * 100 to 1,000 tags. Its answers equal the full-read order (an English collator, case and accents
 * ignored, numbers by value, ties by ID), checked against every term read by ID order.
 */
const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

/** Names that exercise the order: case, accents, numbers by value, spaces and hyphens. */
const nameOf = (n: number) =>
  [`Tag ${n}`, `tag-${n} b`, `Été ${n % 37}x${n}`, `zone${n}`, `A ${n % 7} b${n}`, `ÉTÉ-${n}`][n % 6]!;

async function createTags(from: number, to: number, path = '/tags') {
  const ns = Array.from({ length: to - from }, (_, i) => from + i);
  for (let i = 0; i < ns.length; i += 8)
    await Promise.all(
      ns.slice(i, i + 8).map(async (n) => {
        const res = await api.post(path, { name: nameOf(n) }, { token: editor });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
      }),
    );
}

/** Every term of a collection, read through the full-read path (order by ID), sorted as the lists sort. */
async function oracle(collection: 'tags' | 'categories'): Promise<Rec[]> {
  const all: Rec[] = [];
  for (let p = 1; ; p++) {
    const res = await api.get(`/${collection}?hide_empty=false&orderby=id&per_page=50&page=${p}`, {
      token: editor,
    });
    expect(res.status).toBe(200);
    all.push(...res.body[collection]);
    if (res.body[collection].length < 50) return all.sort(byName);
  }
}

async function listPage(query: string, collection: 'tags' | 'categories' = 'tags') {
  const { result, rounds, items, calls } = await measure(() =>
    api.get(`/${collection}?hide_empty=false${query}`, { token: editor }),
  );
  expect(result.status).toBe(200);
  return { res: result, rounds, items, calls };
}

async function expectSameAsOracle(collection: 'tags' | 'categories' = 'tags') {
  const all = await oracle(collection);
  for (const [query, want] of [
    ['', all.slice(0, 10)],
    ['&page=2', all.slice(10, 20)],
    ['&per_page=50&page=3', all.slice(100, 150)],
    ['&order=desc&per_page=7&page=2', [...all].reverse().slice(7, 14)],
    [`&page=${Math.ceil(all.length / 10) + 1}`, []],
  ] as const) {
    const { res } = await listPage(query, collection);
    expect(res.body[collection], query).toEqual(want);
    expect(res.body.total).toBe(all.length);
    expect(res.body.total_pages).toBe(
      Math.ceil(all.length / Number(/per_page=(\d+)/.exec(query)?.[1] ?? 10)),
    );
  }
  return all;
}

const fullReads = (calls: Array<{ command: string; index?: string }>) =>
  calls.filter((c) => c.command === 'QueryCommand' && c.index === 'bySlug');

describe('GET /tags?hide_empty=false costs its page', () => {
  const cost: Record<number, { items: number; rounds: number }> = {};

  beforeAll(async () => {
    await createTags(0, 100);
    cost[100] = await listPage('&page=2');
    await createTags(100, 1000);
    cost[1000] = await listPage('&page=2');
  }, 300_000);

  it('answers as the full read does, pages and totals included', async () => {
    const all = await expectSameAsOracle();
    expect(all).toHaveLength(1000);
  });

  it('reads the same items in the same round trips at 100 and at 1,000 tags', async () => {
    expect(cost[1000]!.items).toBeLessThanOrEqual(cost[100]!.items * 1.5);
    expect(cost[1000]!.rounds).toBeLessThanOrEqual(cost[100]!.rounds);
    expect(cost[1000]!.rounds).toBeLessThanOrEqual(2);
    const { calls, items } = await listPage('');
    expect(fullReads(calls)).toEqual([]);
    expect(items).toBeLessThanOrEqual(10 + STATUS_SHARDS);
  });

  it('follows renames and deletes', async () => {
    const all = await oracle('tags');
    const first = all[0]!;
    expect((await api.post(`/tags/${first.id}`, { name: 'zzz last' }, { token: editor })).status).toBe(200);
    const gone = all[5]!;
    expect((await api.del(`/tags/${gone.id}`, { token: editor })).status).toBe(200);
    const after = await expectSameAsOracle();
    expect(after).toHaveLength(999);
    expect(after.at(-1)!.id).toBe(first.id);
    expect(after.some((t) => t.id === gone.id)).toBe(false);
  });

  it('falls back to the full read while a name the index cannot order exists', async () => {
    const odd = (await api.post('/tags', { name: 'Ærøskøbing_1' }, { token: editor })).body;
    const { calls } = await listPage('');
    expect(fullReads(calls).length).toBeGreaterThan(0);
    await expectSameAsOracle();
    expect((await api.post(`/tags/${odd.id}`, { name: 'Aeroskobing 1' }, { token: editor })).status).toBe(
      200,
    );
    const again = await listPage('');
    expect(fullReads(again.calls)).toEqual([]);
    await expectSameAsOracle();
  });

  it('npm run reindex gives terms written before the index their keys and totals', async () => {
    const before = await oracle('tags');
    // The state of a table written before the name index: no name keys, no totals.
    await Promise.all(
      before.map((t) =>
        ddb.send(
          new UpdateCommand({
            TableName: tableName(),
            Key: keys.term(t.id),
            UpdateExpression: 'REMOVE gsi2pk, gsi2sk',
          }),
        ),
      ),
    );
    for (let s = 0; s < STATUS_SHARDS; s++)
      await ddb.send(new DeleteCommand({ TableName: tableName(), Key: keys.termTotals('post_tag', s) }));
    expect((await listPage('')).res.body.tags).toEqual([]);
    const report = await rebuildTermIndex();
    expect(report, JSON.stringify(before.filter((t) => !/^[\p{L}0-9 -]*$/u.test(t.name)))).toMatchObject({
      terms: before.length,
      updated: before.length,
    });
    expect(await rebuildTermIndex()).toMatchObject({ updated: 0 });
    await expectSameAsOracle();
  }, 120_000);
});

describe('an event write that creates many tags at once', () => {
  it('adds each to the totals (writes to one totals shard are summed in its transaction)', async () => {
    const tags = Array.from({ length: 25 }, (_, i) => `bulk tag ${i}`);
    const res = await api.post(
      '/events',
      { title: 'Tagged', start_date: '2031-05-01 10:00:00', end_date: '2031-05-01 11:00:00', tags },
      { token: editor },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const all = await expectSameAsOracle();
    expect(all.filter((t) => t.name.startsWith('bulk tag'))).toHaveLength(25);
  });
});

describe('GET /categories?hide_empty=false', () => {
  it('answers as the full read does, with nested archive URLs', async () => {
    const top = (await api.post('/categories', { name: 'Music' }, { token: editor })).body;
    const mid = (await api.post('/categories', { name: 'jazz 10', parent: top.id }, { token: editor })).body;
    await api.post('/categories', { name: 'Jazz 9', parent: mid.id }, { token: editor });
    await createTags(0, 30, '/categories');
    const all = await expectSameAsOracle('categories');
    const nested = all.find((c) => c.name === 'Jazz 9')!;
    expect(nested.url).toMatch(/\/music\/jazz-10\/jazz-9\/$/);
    const { calls } = await listPage('&per_page=50', 'categories');
    expect(fullReads(calls)).toEqual([]);
  }, 120_000);
});
