import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ddb, tableName } from '../../shared/db/client';
import { keys } from '../../shared/db/keys';
import { venueTreeScope } from '../../shared/domain/tallies';
import { rebuildFeaturedIndex } from '../../shared/services/maintenance';
import { rebuildTallies } from '../../shared/services/maintenance';
import { measure } from '../support/db-calls';
import { useStack } from '../support/use-stack';
import { type Rec } from '../support/bodies';

/**
 * Month tallies (shared/domain/tallies.ts) and their rebuild (`npm run reindex`, rebuildTallies): a
 * window's lists read one tally item per month of the window, and a table whose tallies are lost, wrong
 * or of the older per-day layout lists exactly as before once rebuilt, from its event records alone.
 */
const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

const WINDOW = 'start_date=2033-01-30&end_date=2033-04-02';
/** The same window in strict mode, which no tally answers: from 00:00:00 to 23:59:59 of its days. */
const STRICT = 'start_date=2033-01-30%2000:00:00&end_date=2033-04-02%2023:59:59&strict_dates=true';
const ids: Record<string, number> = {};

async function post(path: string, body: Rec): Promise<number> {
  const res = await api.post(path, body, { token: editor });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}

/** Every query whose total and pages the tallies answer, with its untallied twin (strict dates). */
const queries = () => [
  '',
  'featured=true',
  `categories=${ids.parent}`,
  `categories=${ids.child}`,
  `tags=${ids.tag}`,
  `venue=${ids.venue}`,
  `organizer=${ids.organizer}`,
  `categories=${ids.parent}&venue=${ids.venue}`,
  `categories=${ids.child}&venue=${ids.venue}`,
];

/** IDs and total of a list, three a page, as anonymous callers and editors see it. */
async function snapshot(query: string, strict = false) {
  const out: Rec = {};
  for (const [who, opts] of [
    ['anon', {}],
    ['editor', { token: editor }],
  ] as const) {
    const pages: number[][] = [];
    let total = 0;
    for (let p = 1; p <= 8; p++) {
      const res = await api.get(`/events?${strict ? STRICT : WINDOW}&${query}&per_page=3&page=${p}`, opts);
      if (res.status === 404 && res.body.code === 'event-archive-page-not-found') break;
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      total = Number(res.body.total);
      pages.push((res.body.events as Rec[]).map((e) => e.id as number));
    }
    out[who] = { pages, total };
  }
  return out;
}

/** The items of a tally partition, named as stored (`TALLY#<scope>`, db/keys.ts). */
async function tallyItems(scope: string): Promise<Rec[]> {
  const out = await ddb.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `TALLY#${scope}` },
      ConsistentRead: true,
    }),
  );
  return out.Items ?? [];
}

let before: Record<string, Rec>;

beforeAll(async () => {
  ids.parent = await post('/categories', { name: 'Rebuild parent' });
  ids.child = await post('/categories', { name: 'Rebuild child', parent: ids.parent });
  ids.tag = await post('/tags', { name: 'Rebuild tag' });
  ids.venue = await post('/venues', { venue: 'Rebuild hall' });
  ids.organizer = await post('/organizers', { organizer: 'Rebuild club' });
  // Across three months, with events spanning a month's end, ending at 23:59:59, starting at
  // 23:59:59, drafts, a trashed one, one outside the window, and two long ones (over 31 days) that
  // start in months counted from their day sums, one ending inside the window and one after it.
  const plan: Array<[string, string, Rec]> = [
    ['2033-01-29 10:00:00', '2033-01-30 10:00:00', { categories: [ids.child] }],
    ['2033-01-30 00:00:00', '2033-01-30 01:00:00', { featured: true, tags: [ids.tag] }],
    ['2033-01-31 22:00:00', '2033-02-01 02:00:00', { categories: [ids.parent], venue: ids.venue }],
    ['2033-02-14 23:59:59', '2033-02-15 09:00:00', { categories: [ids.child], organizer: ids.organizer }],
    ['2033-02-28 20:00:00', '2033-02-28 23:59:59', { tags: [ids.tag], venue: ids.venue }],
    ['2033-03-01 10:00:00', '2033-03-01 11:00:00', { status: 'draft', categories: [ids.child] }],
    ['2033-03-15 10:00:00', '2033-03-15 11:00:00', { featured: true, organizer: ids.organizer }],
    ['2033-03-31 10:00:00', '2033-04-03 11:00:00', { categories: [ids.child], tags: [ids.tag] }],
    ['2033-04-02 09:00:00', '2033-04-02 10:00:00', { venue: ids.venue, categories: [ids.parent] }],
    ['2033-04-02 09:00:00', '2033-04-02 10:00:00', { status: 'pending', tags: [ids.tag] }],
    ['2033-04-05 09:00:00', '2033-04-05 10:00:00', {}],
    ['2033-01-31 10:00:00', '2033-03-20 10:00:00', { tags: [ids.tag] }],
    ['2033-02-10 10:00:00', '2033-05-20 10:00:00', { tags: [ids.tag] }],
    ['2033-02-20 10:00:00', '2033-02-20 11:00:00', { categories: [ids.child], venue: ids.venue }],
    [
      '2033-02-21 10:00:00',
      '2033-02-21 11:00:00',
      { status: 'draft', categories: [ids.child], venue: ids.venue },
    ],
  ];
  let n = 0;
  for (const [start_date, end_date, extra] of plan)
    await post('/events', { title: `Rebuild ${++n}`, status: 'publish', start_date, end_date, ...extra });
  const trashed = await post('/events', {
    title: 'Rebuild trashed',
    status: 'publish',
    start_date: '2033-02-10 10:00:00',
    end_date: '2033-02-10 11:00:00',
    categories: [ids.child],
  });
  expect((await api.del(`/events/${trashed}`, { token: editor })).status).toBe(200);
  before = Object.fromEntries(await Promise.all(queries().map(async (q) => [q, await snapshot(q)])));
}, 120_000);

describe('month tallies', () => {
  it('list as the untallied path does', async () => {
    for (const q of queries()) expect(before[q], q).toEqual(await snapshot(q, true));
    expect(before['']!.anon.total).toBe(8); // published, starting and ending inside the window
    expect(before['']!.editor.total).toBe(11); // and the draft and the pending one
  });

  it('are read one item per month of the window: day sums, and the detail of the months near its end', async () => {
    const { result: res, calls } = await measure(() => api.get(`/events?${WINDOW}&per_page=3&page=2`));
    expect(res.status).toBe(200);
    const tallyReads = calls.filter((c) => c.partition === 'TALLY#ALL');
    // January to April's day sums, together with March and April's detail (an event starting there
    // could end on either side of April 2).
    expect(tallyReads.map((c) => c.items).sort()).toEqual([2, 4]);
  });

  it('count a category with a venue from their pair tallies, and read the page from the smaller one', async () => {
    const query = `${WINDOW}&categories=${ids.parent}&venue=${ids.venue}&per_page=2&page=2`;
    const { result: res, calls } = await measure(() => api.get(`/events?${query}`));
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(3);
    expect(res.body.events).toHaveLength(1);
    const pair = keys.tally(venueTreeScope(ids.venue!, ids.parent!), '2033-01');
    const pairReads = calls.filter((c) => c.partition === pair.pk && c.narrowed);
    expect(pairReads.length).toBeGreaterThanOrEqual(1);
    // No read of every row of either filter to count the total: the subtree's link rows from the page's
    // day (the last one with a match), one Query per category of the subtree.
    const rows = calls.filter((c) => c.command === 'QueryCommand' && c.index === 'byAssignment');
    expect(rows).toHaveLength(2);
    expect(rows.reduce((n, c) => n + c.items, 0)).toBe(1);
  });

  it('stay right for a category with a venue after a re-parent, and after the reindex', async () => {
    const moved = await api.patch(`/categories/${ids.child}`, { parent: 0 }, { token: editor });
    expect(moved.status).toBe(200);
    const query = `categories=${ids.parent}&venue=${ids.venue}`;
    const now = await snapshot(query);
    expect(now).toEqual(await snapshot(query, true));
    expect(now.anon.total).toBe(2);

    await rebuildTallies();

    expect(await snapshot(query)).toEqual(now);
    expect(
      (await api.patch(`/categories/${ids.child}`, { parent: ids.parent }, { token: editor })).status,
    ).toBe(200);
    await rebuildTallies();
    expect(await snapshot(query)).toEqual(before[query]);
  }, 120_000);
});

describe('npm run reindex (rebuildTallies)', () => {
  it('brings back lost, wrong and day-layout tallies, and removes what no event counts', async () => {
    // Lost: the whole-calendar tallies; wrong: a tag's counts; older layout: a day item; stray: a
    // month no event of the venue starts in.
    for (const item of await tallyItems('ALL'))
      await ddb.send(new DeleteCommand({ TableName: tableName(), Key: { pk: item.pk, sk: item.sk } }));
    const [tagMonth] = await tallyItems(`TERM#${ids.tag}`);
    const wrong = Object.fromEntries(
      Object.entries(tagMonth!).map(([k, v]) => [k, typeof v === 'number' ? v + 5 : v]),
    );
    const strays = [
      { pk: 'TALLY#FEATURED', sk: '2033-01-30', 'p|2033-01-30': 1, 'a|2033-01-30': 1 },
      { pk: `TALLY#VENUE#${ids.venue}`, sk: '2033-06', 'p01|0': 3 },
    ];
    for (const Item of [wrong, ...strays]) await ddb.send(new PutCommand({ TableName: tableName(), Item }));
    expect((await snapshot('')).anon.total).toBe(0);

    const report = await rebuildTallies();

    expect(report.events).toBe(16);
    expect(report.removed).toBe(2);
    for (const q of queries()) expect(await snapshot(q), q).toEqual(before[q]);
    // Each month with events: its detail item and its day sums (`S#`).
    const withSums = (months: string[]) =>
      [...months, ...months.map((m) => m.replace(/(\d{4}-\d\d)$/, 'S#$1'))].sort();
    expect((await tallyItems('FEATURED')).map((i) => i.sk)).toEqual(withSums(['2033-01', '2033-03']));
    expect((await tallyItems(`VENUE#${ids.venue}`)).map((i) => i.sk).sort()).toEqual(
      withSums([
        '2033-01',
        '2033-02',
        '2033-04',
        `TREE#${ids.child}#2033-02`,
        `TREE#${ids.parent}#2033-01`,
        `TREE#${ids.parent}#2033-02`,
        `TREE#${ids.parent}#2033-04`,
      ]),
    );
  }, 120_000);

  it('changes nothing when run again', async () => {
    const scopes = ['ALL', 'FEATURED', `TERM#${ids.tag}`, `TREE#${ids.parent}`, `VENUE#${ids.venue}`];
    const items = await Promise.all(scopes.map(tallyItems));

    const report = await rebuildTallies();

    expect(report.removed).toBe(0);
    expect(await Promise.all(scopes.map(tallyItems))).toEqual(items);
    for (const q of queries()) expect(await snapshot(q), q).toEqual(before[q]);
  }, 120_000);
});

describe('npm run reindex (rebuildFeaturedIndex)', () => {
  const featuredIds = async () => ((await snapshot('featured=true')).editor.pages as number[][]).flat();

  it('puts back featured records the partition lost and takes out those that are not featured', async () => {
    const listed = await featuredIds();
    expect(listed).toHaveLength(2);
    const { body: plain } = await api.get(`/events?${WINDOW}&per_page=50`, { token: editor });
    const notFeatured = (plain.events as Rec[]).find((e) => e.featured === false)!;
    // A table written before the partition existed: a featured record without its keys; and a record
    // left in the partition by hand.
    await ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.post(listed[0]!),
        UpdateExpression: 'REMOVE gsi4pk, gsi4sk',
      }),
    );
    await ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.post(notFeatured.id),
        UpdateExpression: 'SET gsi4pk = :pk, gsi4sk = :sk',
        ExpressionAttributeValues: { ':pk': 'FEATURED', ':sk': '2033-01-29 10:00:00#000000000000' },
      }),
    );
    expect(await featuredIds()).toEqual(listed.slice(1));

    const report = await rebuildFeaturedIndex();

    expect(report).toEqual({ events: 16, added: 1, removed: 1 });
    expect(await featuredIds()).toEqual(listed);
    expect(await rebuildFeaturedIndex()).toEqual({ events: 16, added: 0, removed: 0 });
    expect(await snapshot('featured=true')).toEqual(before['featured=true']);
  }, 120_000);
});
