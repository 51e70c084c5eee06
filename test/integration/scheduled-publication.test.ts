import { describe, expect, it } from 'vitest';
import { publishDue } from '../../shared/services/maintenance';
import { anEvent, anOrganizer, aVenue, type Rec } from '../support/bodies';
import { useStack } from '../support/use-stack';

/**
 * Scheduling as WordPress does it (issue 39, decisions §9): `publish` with a future `date` is stored
 * as `future` and is not public until then; `future` with no date or a past one is `publish`. When the
 * date comes the publish job (functions/jobs/publish-scheduled.ts; a timer locally) publishes it
 * through the write path: lists, counts, pages and the change feed show it from then on.
 */
process.env.CHANGES_SETTLE_SECONDS = '0';

const {
  api,
  tokens: { editor, contributor },
} = await useStack({ tokens: { editor: 'editor', contributor: 'contributor' } });

const utc = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
const FAR = '2099-01-01 10:00:00';
const PAST = '2020-01-01 10:00:00';

async function made(path: string, body: Rec, token = editor): Promise<Rec> {
  const res = await api.post(path, body, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as Rec;
}

/** An event window that holds only the events this file makes at that start. */
const WINDOW = 'start_date=2033-07-01&end_date=2033-07-31';
const when = { start_date: '2033-07-10 19:00:00', end_date: '2033-07-10 21:00:00' };

describe('status and date on write (the reference answers)', () => {
  it.each([
    { path: '/events', body: anEvent({ status: 'publish', date: FAR }), status: 'future' },
    { path: '/events', body: anEvent({ status: 'publish', date_utc: FAR }), status: 'future' },
    { path: '/events', body: anEvent({ date: FAR }), status: 'future' },
    { path: '/events', body: anEvent({ status: 'future' }), status: 'publish' },
    { path: '/events', body: anEvent({ status: 'future', date: PAST }), status: 'publish' },
    { path: '/events', body: anEvent({ status: 'future', date: FAR }), status: 'future' },
    { path: '/events', body: anEvent({ status: 'publish', date: PAST }), status: 'publish' },
    { path: '/events', body: anEvent({ status: 'draft', date: FAR }), status: 'draft' },
    { path: '/venues', body: aVenue({ status: 'publish', date: FAR }), status: 'future' },
    { path: '/venues', body: aVenue({ status: 'future' }), status: 'publish' },
    { path: '/organizers', body: anOrganizer({ status: 'publish', date: FAR }), status: 'future' },
    { path: '/organizers', body: anOrganizer({ status: 'future', date: PAST }), status: 'publish' },
  ])('$path $body is $status', async ({ path, body, status }) => {
    expect((await made(path, body)).status).toBe(status);
  });

  it("a contributor's publish with a future date is pending, as any publish of theirs", async () => {
    expect((await made('/events', anEvent({ status: 'publish', date: FAR }), contributor)).status).toBe(
      'pending',
    );
  });

  it('an update that moves the date of a scheduled event into the past publishes it, and back schedules it', async () => {
    const e = await made('/events', anEvent({ status: 'publish', date: FAR }));
    const now = await api.patch(`/events/${e.id}`, { date: PAST }, { token: editor });
    expect(now.body.status).toBe('publish');
    const later = await api.patch(`/events/${e.id}`, { date: FAR }, { token: editor });
    expect(later.body.status).toBe('future');
  });

  it('a scheduled event is not public: 403 to a visitor, absent from lists and counts', async () => {
    const before = await api.get(`/events?${WINDOW}`);
    const e = await made('/events', anEvent({ ...when, status: 'publish', date: FAR }));
    expect((await api.get(`/events/${e.id}`)).status).toBe(403);
    const after = await api.get(`/events?${WINDOW}`);
    expect(after.body.total).toBe(before.body.total);
    expect(after.body.events.map((x: Rec) => x.id)).not.toContain(e.id);
    const asEditor = await api.get(`/events?${WINDOW}&status=future`, { token: editor });
    expect(asEditor.body.events.map((x: Rec) => x.id)).toContain(e.id);
  });
});

/** Every change after `since` a visitor sees, and the last cursor. */
async function feed(since?: string): Promise<{ changes: Rec[]; cursor: string }> {
  const changes: Rec[] = [];
  let cursor = since;
  for (;;) {
    const q = new URLSearchParams({ per_page: '100', ...(cursor ? { since: cursor } : {}) });
    const res = await api.get(`/changes?${q}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    changes.push(...res.body.changes);
    cursor = res.body.next_cursor;
    if (!res.body.has_more) return { changes, cursor: cursor! };
  }
}

const sleepUntil = async (ms: number) => {
  while (Date.now() <= ms) await new Promise((ok) => setTimeout(ok, Math.max(10, ms - Date.now() + 20)));
};

describe('the publish job', () => {
  it('publishes what is due through the write path: lists, counts, pages and the change feed show it then', async () => {
    const due = Date.now() + 3000;
    const before = await api.get(`/events?${WINDOW}`);
    const event = await made('/events', anEvent({ ...when, status: 'publish', date_utc: utc(due) }));
    const venue = await made('/venues', aVenue({ status: 'publish', date_utc: utc(due) }));
    const later = await made('/events', anEvent({ ...when, status: 'publish', date: FAR }));
    expect([event.status, venue.status, later.status]).toEqual(['future', 'future', 'future']);
    const { cursor } = await feed();
    const page = () => fetch(`${api.origin}${new URL(event.url).pathname}`);
    expect((await page()).status).toBe(404);

    // Before the date: nothing is due, nothing changes.
    const early = await publishDue(new Date());
    expect(early.published).toBe(0);
    expect((await feed(cursor)).changes).toEqual([]);

    await sleepUntil(due + 1000);
    const run = await publishDue(new Date());
    expect(run).toMatchObject({ failed: 0 });
    expect(run.published).toBeGreaterThanOrEqual(2);

    const read = await api.get(`/events/${event.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ status: 'publish', date_utc: utc(due), author: event.author });
    expect((await api.get(`/venues/${venue.id}`)).body.status).toBe('publish');
    const listed = await api.get(`/events?${WINDOW}`);
    expect(listed.body.total).toBe(before.body.total + 1);
    expect(listed.body.events.map((x: Rec) => x.id)).toContain(event.id);
    expect(listed.body.events.map((x: Rec) => x.id)).not.toContain(later.id);
    expect((await page()).status).toBe(200);
    const { changes } = await feed(cursor);
    expect(changes.map((c) => [c.resource, c.id, c.action])).toEqual(
      expect.arrayContaining([
        ['events', event.id, 'created'],
        ['venues', venue.id, 'created'],
      ]),
    );

    // Published once: a second run finds nothing due.
    expect(await publishDue(new Date())).toMatchObject({ published: 0, failed: 0 });
    expect((await api.get(`/events/${later.id}`, { token: editor })).body.status).toBe('future');
  }, 30_000);

  it('drops the mark of a scheduled record trashed, deleted or published another way, and publishes nothing', async () => {
    const due = Date.now() + 2000;
    const trashed = await made('/events', anEvent({ status: 'publish', date_utc: utc(due) }));
    const deleted = await made('/organizers', anOrganizer({ status: 'publish', date_utc: utc(due) }));
    expect((await api.del(`/events/${trashed.id}`, { token: editor })).status).toBe(200);
    expect((await api.del(`/organizers/${deleted.id}?force=true`, { token: editor })).status).toBe(200);
    await sleepUntil(due + 1000);
    const run = await publishDue(new Date());
    expect(run).toMatchObject({ published: 0, failed: 0 });
    expect((await api.get(`/events/${trashed.id}`, { token: editor })).body.status).toBe('trash');
    expect(await publishDue(new Date())).toMatchObject({ due: 0 });
  }, 30_000);
});
