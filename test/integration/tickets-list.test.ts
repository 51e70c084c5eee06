import { DeleteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ddb, tableName } from '../../shared/db/client';
import { keys } from '../../shared/db/keys';
import { rebuildTallies, rebuildTicketedEvents } from '../../shared/services/maintenance';
import { type DbCall, measure } from '../support/db-calls';
import { useStack } from '../support/use-stack';

/**
 * `GET /events?ticketed=true|false` (docs/tickets.md, "ticketed on the events list"): the ticket writes
 * keep each event's ticket count, its ticketed row and the TICKETED tallies, so the lists page and
 * count from the tallies like the other filters. Each test has days of its own in 2029.
 */

const { api, tokens } = await useStack({ tokens: { editor: 'editor' } });
const t = (path: string) => `${api.origin}/cal/tickets/v1${path}`;
const asEditor = { token: tokens.editor };

async function event(day: string, hour: number, body: Record<string, unknown> = {}): Promise<number> {
  const at = `${day} ${String(hour).padStart(2, '0')}:00:00`;
  const res = await api.post(
    '/events',
    { title: `Event ${day} ${hour}`, status: 'publish', start_date: at, end_date: at, ...body },
    asEditor,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

async function ticket(postId: number): Promise<number> {
  const res = await api.post(t('/tickets'), { post_id: postId, title: 'Entry' }, asEditor);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

/** Every page of a list, in order, with the totals each page's headers and body gave. */
async function pages(window: string, query: string, perPage: number, token?: string) {
  const ids: number[] = [];
  const totals = new Set<string>();
  for (let page = 1; ; page++) {
    const res = await api.get(`/events?${window}&${query}&per_page=${perPage}&page=${page}`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const headers = `${res.headers.get('x-cal-total')}/${res.headers.get('x-cal-totalpages')}`;
    totals.add(headers);
    expect(`${res.body.total}/${res.body.total_pages}`).toBe(headers);
    ids.push(...(res.body.events ?? []).map((e: { id: number }) => e.id));
    if (page >= Number(res.headers.get('x-cal-totalpages'))) break;
  }
  expect(totals.size, 'every page gives the same totals').toBe(1);
  const [total, totalPages] = [...totals][0]!.split('/').map(Number);
  return { ids, total: total!, totalPages: totalPages! };
}

const days = (from: string, to: string) => `start_date=${from}&end_date=${to}`;

describe('GET /events?ticketed=', () => {
  it('pages ticketed=true and ticketed=false in list order with their totals, as tickets come and go', async () => {
    const window = days('2029-06-01', '2029-06-06');
    // Twelve events over five days, two an hour apart some days; tickets on five of them.
    const made: number[] = [];
    for (const [day, hour] of [
      ['2029-06-01', 9],
      ['2029-06-01', 10],
      ['2029-06-02', 9],
      ['2029-06-02', 18],
      ['2029-06-03', 9],
      ['2029-06-03', 10],
      ['2029-06-03', 11],
      ['2029-06-04', 9],
      ['2029-06-04', 20],
      ['2029-06-05', 9],
      ['2029-06-05', 10],
      ['2029-06-06', 9],
    ] as const)
      made.push(await event(day, hour));
    const ticketed = [made[1]!, made[3]!, made[6]!, made[7]!, made[11]!];
    const tickets = new Map<number, number>();
    for (const id of ticketed) tickets.set(id, await ticket(id));
    // A second ticket on one event: still one ticketed event.
    const second = await ticket(made[6]!);
    const others = made.filter((id) => !ticketed.includes(id));

    expect(await pages(window, 'ticketed=true', 2)).toEqual({ ids: ticketed, total: 5, totalPages: 3 });
    expect(await pages(window, 'ticketed=false', 3)).toEqual({ ids: others, total: 7, totalPages: 3 });
    // Together they are the whole window, which is unchanged.
    expect((await pages(window, 'ticketed=false', 50)).total + 5).toBe((await pages(window, '', 50)).total);

    // One of two tickets deleted: still ticketed. The last one deleted: not any more.
    expect((await api.del(t(`/tickets/${second}`), asEditor)).status).toBe(200);
    expect((await pages(window, 'ticketed=true', 2)).ids).toEqual(ticketed);
    expect((await api.del(t(`/tickets/${tickets.get(made[6]!)}`), asEditor)).status).toBe(200);
    const fewer = ticketed.filter((id) => id !== made[6]);
    expect(await pages(window, 'ticketed=true', 2)).toEqual({ ids: fewer, total: 4, totalPages: 2 });
    expect(await pages(window, 'ticketed=false', 4)).toEqual({
      ids: made.filter((id) => !fewer.includes(id)),
      total: 8,
      totalPages: 2,
    });

    // A ticket moved to another event moves the event's ticketed state with it.
    const moved = await api.put(t(`/tickets/${tickets.get(made[1]!)}`), { post_id: made[0] }, asEditor);
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const now = [made[0]!, made[3]!, made[7]!, made[11]!];
    expect(await pages(window, 'ticketed=true', 3)).toEqual({ ids: now, total: 4, totalPages: 2 });
    expect((await pages(window, 'ticketed=false', 3)).ids).toEqual(made.filter((id) => !now.includes(id)));
  });

  it('follows a ticketed event that moves, is drafted, trashed or hidden, and counts drafts for editors', async () => {
    const window = days('2029-07-01', '2029-07-10');
    const a = await event('2029-07-02', 10);
    const b = await event('2029-07-03', 10);
    const c = await event('2029-07-04', 10);
    const plain = await event('2029-07-01', 10);
    for (const id of [a, b, c]) await ticket(id);
    expect((await pages(window, 'ticketed=true', 2)).ids).toEqual([a, b, c]);

    // An event write keeps its ticketed row and tally with it: moved after c, the order follows.
    const moved = await api.patch(
      `/events/${a}`,
      { start_date: '2029-07-05 10:00:00', end_date: '2029-07-05 11:00:00' },
      asEditor,
    );
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(await pages(window, 'ticketed=true', 2)).toEqual({ ids: [b, c, a], total: 3, totalPages: 2 });
    // Moved out of the window: gone from both lists in it.
    await api.patch(
      `/events/${a}`,
      { start_date: '2029-08-05 10:00:00', end_date: '2029-08-05 11:00:00' },
      asEditor,
    );
    expect((await pages(window, 'ticketed=true', 2)).ids).toEqual([b, c]);
    expect((await pages(window, 'ticketed=false', 2)).ids).toEqual([plain]);

    // A draft is listed for editors only, in both the count and the page.
    expect((await api.patch(`/events/${b}`, { status: 'draft' }, asEditor)).status).toBe(200);
    expect(await pages(window, 'ticketed=true', 2)).toEqual({ ids: [c], total: 1, totalPages: 1 });
    expect(await pages(window, 'ticketed=true', 2, tokens.editor)).toEqual({
      ids: [b, c],
      total: 2,
      totalPages: 1,
    });
    // Hidden from listings, or trashed: in neither list.
    expect((await api.patch(`/events/${c}`, { hide_from_listings: true }, asEditor)).status).toBe(200);
    expect(await pages(window, 'ticketed=true', 2)).toEqual({ ids: [], total: 0, totalPages: 0 });
    expect((await api.del(`/events/${b}`, asEditor)).status).toBe(200);
    expect((await pages(window, 'ticketed=true', 2, tokens.editor)).ids).toEqual([]);
    expect((await pages(window, 'ticketed=false', 2, tokens.editor)).ids).toEqual([plain]);
    // Restored from the trash, ticketed again (its ticket stayed).
    expect((await api.patch(`/events/${b}`, { status: 'publish' }, asEditor)).status).toBe(200);
    expect((await pages(window, 'ticketed=true', 2)).ids).toEqual([b]);
  });

  it('combines with other filters, which read their own rows and check the ticketed flag on them', async () => {
    const window = days('2029-09-01', '2029-09-03');
    const cat = await api.post('/categories', { name: 'Ticketed Jazz' }, asEditor);
    expect(cat.status).toBe(201);
    const jazz = { categories: [cat.body.id] };
    const one = await event('2029-09-01', 10, jazz);
    const two = await event('2029-09-02', 10, jazz);
    const three = await event('2029-09-02', 12);
    await ticket(one);
    await ticket(three);
    const q = `categories=${cat.body.id}`;

    expect(await pages(window, `${q}&ticketed=true`, 10)).toEqual({ ids: [one], total: 1, totalPages: 1 });
    expect(await pages(window, `${q}&ticketed=false`, 10)).toEqual({ ids: [two], total: 1, totalPages: 1 });
    expect((await pages(window, 'featured=false&ticketed=true', 10)).ids).toEqual([one, three]);
    expect((await pages(window, 'ticketed=true&strict_dates=true', 10)).ids).toEqual([one, three]);
    // Linked to the category after its ticket: the link row says it is ticketed.
    expect((await api.patch(`/events/${three}`, jazz, asEditor)).status).toBe(200);
    expect((await pages(window, `${q}&ticketed=true`, 10)).ids).toEqual([one, three]);
  });

  it("raises the event's version with its ticket count: an If-Match from before is refused", async () => {
    const id = await event('2029-10-01', 10);
    const before = await api.get(`/events/${id}`);
    const etag = before.headers.get('etag')!;
    await ticket(id);

    const after = await api.get(`/events/${id}`);
    const stale = await api.patch(
      `/events/${id}`,
      { title: 'Renamed' },
      { ...asEditor, headers: { 'If-Match': etag } },
    );

    expect(after.headers.get('etag')).not.toBe(etag);
    expect(after.body).toEqual(before.body);
    expect(stale.status).toBe(412);
    // Without If-Match an event write racing a ticket write is retried; this one simply goes through.
    expect((await api.patch(`/events/${id}`, { title: 'Renamed' }, asEditor)).status).toBe(200);
    expect((await pages(days('2029-10-01', '2029-10-01'), 'ticketed=true', 10)).ids).toEqual([id]);
  });

  it('refuses a ticket for an event that does not exist, and lists nothing for it', async () => {
    const res = await api.post(t('/tickets'), { post_id: 99999999, title: 'Nowhere' }, asEditor);
    expect(res.status).toBe(404);
  });
});

describe('what ticketed= reads', () => {
  const window = days('2029-11-01', '2029-11-12');
  const queries = (calls: DbCall[], index: string) =>
    calls.filter((c) => c.command === 'QueryCommand' && c.index === index);
  const itemsOf = (calls: DbCall[]) => calls.reduce((n, c) => n + c.items, 0);

  it('reads the ticketed rows alone for true, and the page (and the ticketed rows among it) for false', async () => {
    // 60 events over 12 days, 3 of them ticketed: the ticketed list is 20 times smaller than the window.
    const ids: number[] = [];
    for (let d = 1; d <= 12; d++)
      for (let h = 0; h < 5; h += 1) ids.push(await event(`2029-11-${String(d).padStart(2, '0')}`, 8 + h));
    const ticketed = [ids[7]!, ids[31]!, ids[52]!];
    for (const id of ticketed) await ticket(id);
    const others = ids.filter((id) => !ticketed.includes(id));

    const yes = await measure(() => api.get(`/events?${window}&ticketed=true`));
    expect(yes.result.body.events.map((e: { id: number }) => e.id)).toEqual(ticketed);
    expect(yes.result.body.total).toBe(3);
    // Its rows come from the ticketed partition only, never the window's every event.
    expect(queries(yes.calls, 'byStart')).toEqual([]);
    expect(queries(yes.calls, 'byAssignment').map((c) => c.partition)).toEqual(['TICKETED#0']);
    expect(itemsOf(queries(yes.calls, 'byAssignment'))).toBe(3);
    expect(yes.rounds).toBeLessThanOrEqual(3);

    for (const p of [1, 4, 8]) {
      const no = await measure(() => api.get(`/events?${window}&ticketed=false&per_page=7&page=${p}`));
      expect(no.result.body.events.map((e: { id: number }) => e.id)).toEqual(
        others.slice((p - 1) * 7, p * 7),
      );
      expect(no.result.body.total).toBe(57);
      expect(no.result.headers.get('x-cal-totalpages')).toBe('9');
      // From the page's day: at most the rest of that day, the page, the ticketed rows among them and a margin.
      expect(itemsOf(queries(no.calls, 'byStart'))).toBeLessThanOrEqual(5 + 7 + 3 + 25);
      expect(no.rounds).toBeLessThanOrEqual(3);
    }
  }, 120_000);
});

describe('npm run reindex (rebuildTicketedEvents, then rebuildTallies)', () => {
  it('gives the events of tickets written before events kept a count their count, row and tallies', async () => {
    const window = days('2029-12-01', '2029-12-02');
    const a = await event('2029-12-01', 10);
    const b = await event('2029-12-02', 10);
    await ticket(a);
    await ticket(a);
    await ticket(b);
    const before = await pages(window, 'ticketed=true', 10);
    expect(before.ids).toEqual([a, b]);
    // A table written before: no count on the records, no ticketed rows, no TICKETED tallies.
    for (const id of [a, b]) {
      await ddb.send(
        new UpdateCommand({ TableName: tableName(), Key: keys.post(id), UpdateExpression: 'REMOVE tickets' }),
      );
      await ddb.send(new DeleteCommand({ TableName: tableName(), Key: keys.ticketedMember(id) }));
    }
    const tallies = await ddb.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': 'TALLY#TICKETED' },
      }),
    );
    for (const i of tallies.Items ?? [])
      await ddb.send(new DeleteCommand({ TableName: tableName(), Key: { pk: i.pk, sk: i.sk } }));
    expect((await pages(window, 'ticketed=true', 10)).ids).toEqual([]);

    const report = await rebuildTicketedEvents();
    await rebuildTallies();

    expect(report).toMatchObject({ set: 2 });
    expect(report.ticketed).toBeGreaterThanOrEqual(2);
    expect(await pages(window, 'ticketed=true', 10)).toEqual(before);
    expect((await pages(window, 'ticketed=false', 10)).ids).toEqual([]);
    // Run again, it finds nothing to set, and deleting a ticket still moves the count it set.
    expect((await rebuildTicketedEvents()).set).toBe(0);
    const [first] = (await api.get(t(`/tickets?post_id=${b}`))).body.tickets as Array<{ id: number }>;
    expect((await api.del(t(`/tickets/${first!.id}`), asEditor)).status).toBe(200);
    expect((await pages(window, 'ticketed=true', 10)).ids).toEqual([a]);
  }, 120_000);
});
