import { beforeAll, describe, expect, it } from 'vitest';
import { rebuildTallies } from '../../shared/services/maintenance';
import { type DbCall, measure } from '../support/db-calls';
import { useStack } from '../support/use-stack';
import { type Rec } from '../support/bodies';

/**
 * `categories=<parent>` (decisions §8: a category filter also matches its children's events) through
 * the subtree tallies (issue 9): the same events, order and total as the untallied path, at the cost of
 * the page. A re-parent or a delete flags the affected ancestors, whose lists read the links until
 * `npm run reindex` (rebuildTallies) rebuilds their tallies.
 */
const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

const WINDOW = 'start_date=2032-05-01&end_date=2032-05-31';
const day = (d: number) => `2032-05-${String(d).padStart(2, '0')}`;
const cat: Record<string, number> = {};
let serial = 0;

async function category(name: string, parent?: number): Promise<number> {
  const res = await api.post('/categories', { name, ...(parent ? { parent } : {}) }, { token: editor });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

async function event(d: number, categories: number[], status = 'publish'): Promise<number> {
  const hour = String(8 + (serial++ % 10)).padStart(2, '0');
  const res = await api.post(
    '/events',
    {
      title: `Tree event ${serial}`,
      status,
      start_date: `${day(d)} ${hour}:00:00`,
      end_date: `${day(d)} ${hour}:30:00`,
      categories,
    },
    { token: editor },
  );
  expect(res.status).toBe(201);
  return res.body.id as number;
}

const byAssignment = (calls: DbCall[]) =>
  calls.filter((c) => c.command === 'QueryCommand' && c.index === 'byAssignment');
const items = (calls: DbCall[]) => calls.reduce((n, c) => n + c.items, 0);
const tallyReads = (calls: DbCall[]) =>
  calls.filter((c) => c.command === 'QueryCommand' && c.partition?.startsWith('TALLY#TREE#'));

/** Every ID and the total of a list, page by page (50 a page). */
async function all(query: string, token?: string): Promise<{ ids: number[]; total: number }> {
  const ids: number[] = [];
  for (let p = 1; ; p++) {
    const res = await api.get(`/events?${query}&per_page=50&page=${p}`, token ? { token } : {});
    expect(res.status).toBe(200);
    ids.push(...(res.body.events as Rec[]).map((e) => e.id as number));
    if (ids.length >= res.body.total || res.body.events.length === 0)
      return { ids, total: Number(res.headers.get('x-cal-total') ?? res.body.total) };
  }
}

/** The tallied list (whole days) equals the untallied one (strict dates), page by page, for both audiences. */
async function sameAsUntallied(category: number, expectedTotal?: { anon: number; editor: number }) {
  for (const [who, token] of [
    ['anon', undefined],
    ['editor', editor],
  ] as const) {
    const ref = await all(`${WINDOW}&strict_dates=true&categories=${category}`, token);
    const got = await all(`${WINDOW}&categories=${category}`, token);
    expect(got).toEqual(ref);
    if (expectedTotal) expect(ref.total).toBe(expectedTotal[who]);
    for (const p of [1, 2, 4]) {
      const res = await api.get(`/events?${WINDOW}&categories=${category}&per_page=3&page=${p}`, {
        ...(token ? { token } : {}),
      });
      if (ref.ids.length <= (p - 1) * 3) continue; // past the last page
      expect(res.status).toBe(200);
      expect((res.body.events as Rec[]).map((e) => e.id)).toEqual(ref.ids.slice((p - 1) * 3, p * 3));
      expect(res.headers.get('x-cal-total')).toBe(String(ref.total));
    }
  }
}

beforeAll(async () => {
  cat.P = await category('Tree parent');
  cat.A = await category('Tree child A', cat.P);
  cat.B = await category('Tree child B', cat.P);
  cat.A1 = await category('Tree grandchild A1', cat.A);
  cat.X = await category('Tree other');
  // Published: P only, A only, B only, A1 only, A and B, P and A, A1 and B; X only (outside).
  const plan: Array<[number, string[], string?]> = [
    [2, ['P']],
    [2, ['A']],
    [3, ['B']],
    [3, ['A1']],
    [3, ['A', 'B']],
    [5, ['P', 'A']],
    [5, ['A1', 'B']],
    [6, ['X']],
    [7, ['A'], 'draft'],
    [7, ['B'], 'pending'],
    [8, ['A1', 'X']],
    [9, ['B']],
  ];
  for (const [d, names, status] of plan)
    await event(
      d,
      names.map((n) => cat[n]!),
      status,
    );
  // A trashed event of the subtree: listed to nobody.
  const trashed = await event(4, [cat.A!, cat.B!]);
  expect((await api.del(`/events/${trashed}`, { token: editor })).status).toBe(200);
}, 120_000);

describe('categories=<parent> through the subtree tallies', () => {
  it('lists the subtree once per event, as the untallied path does, for anonymous callers and editors', async () => {
    // Published in P's subtree: every planned one but X-only, the draft and the pending one.
    await sameAsUntallied(cat.P!, { anon: 9, editor: 11 });
    await sameAsUntallied(cat.A!, { anon: 6, editor: 7 });
  });

  it('answers a window that does not fall on day boundaries like the untallied path', async () => {
    const window = 'start_date=2032-05-03 09:00:00&end_date=2032-05-08 12:00:00';
    const ref = await all(`${window}&strict_dates=true&categories=${cat.P}`);
    const got = await all(`${window}&categories=${cat.P}`);
    expect(got.ids.length).toBeGreaterThan(0);
    expect(got).toEqual({ ids: ref.ids, total: ref.total });
  });

  it('reads the subtree tallies and about a page per category, however many events follow the page', async () => {
    const path = `/events?${WINDOW}&categories=${cat.P}&per_page=3&page=2`;
    const more = async (n: number, categories: number[][]) => {
      for (let i = 0; i < n; i += 8)
        await Promise.all(
          Array.from({ length: Math.min(8, n - i) }, (_, j) =>
            event(20 + ((i + j) % 8), categories[(i + j) % categories.length]!),
          ),
        );
    };
    // Enough events after the page in every child that each one's stream reads a full page.
    await more(160, [[cat.A!], [cat.B!], [cat.A1!], [cat.P!]]);
    const before = await measure(() => api.get(path));
    expect(before.result.status).toBe(200);
    expect(tallyReads(before.calls)).toHaveLength(1);
    const read = items(byAssignment(before.calls));
    // P, A, B and A1: one Query each, sent together, a page each at most (skip + per_page + 25).
    expect(byAssignment(before.calls)).toHaveLength(4);
    expect(read).toBeLessThanOrEqual(4 * (3 + 3 + 25));

    // 40 more events in the subtree, after the page: the same page and reads, the total 40 more.
    await more(40, [[cat.A!], [cat.B!, cat.A1!], [cat.A1!], [cat.P!, cat.B!]]);
    const after = await measure(() => api.get(path));
    expect(after.result.status).toBe(200);
    expect(Number(after.result.headers.get('x-cal-total'))).toBe(
      Number(before.result.headers.get('x-cal-total')) + 40,
    );
    expect((after.result.body.events as Rec[]).map((e) => e.id)).toEqual(
      (before.result.body.events as Rec[]).map((e) => e.id),
    );
    expect(items(byAssignment(after.calls))).toBe(read);
    expect(after.calls.length).toBe(before.calls.length);
    expect(after.rounds).toBe(before.rounds);
    await sameAsUntallied(cat.P!);
  }, 120_000);
});

describe('re-parenting and deleting categories', () => {
  it('stays correct after a re-parent, and the reindex brings back the tallied path', async () => {
    const res = await api.patch(`/categories/${cat.B}`, { parent: cat.X }, { token: editor });
    expect(res.status).toBe(200);
    // P lost B's events, X gained them: both flagged, both answered from the links meanwhile.
    await sameAsUntallied(cat.P!);
    await sameAsUntallied(cat.X!);
    const stale = await measure(() => api.get(`/events?${WINDOW}&categories=${cat.P}&per_page=3`));
    expect(items(byAssignment(stale.calls))).toBeGreaterThan(3 * 3 + 25);

    const report = await rebuildTallies();
    expect(report.cleared).toBeGreaterThanOrEqual(2);
    await sameAsUntallied(cat.P!);
    await sameAsUntallied(cat.X!);
    const fresh = await measure(() => api.get(`/events?${WINDOW}&categories=${cat.P}&per_page=3&page=2`));
    expect(tallyReads(fresh.calls)).toHaveLength(1);
    expect(items(byAssignment(fresh.calls))).toBeLessThanOrEqual(3 * (6 + 25));
  }, 120_000);

  it('stays correct after a child category is deleted, and after the reindex', async () => {
    const res = await api.del(`/categories/${cat.A1}?force=true`, { token: editor });
    expect(res.status).toBe(200);
    await sameAsUntallied(cat.P!);
    await sameAsUntallied(cat.A!);
    await rebuildTallies();
    await sameAsUntallied(cat.P!);
    await sameAsUntallied(cat.A!);
    // A rebuild with nothing changed changes nothing.
    expect(await rebuildTallies()).toMatchObject({ cleared: 0 });
    await sameAsUntallied(cat.P!);
  }, 120_000);
});
