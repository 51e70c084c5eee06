import { describe, expect, it } from 'vitest';
import { useStack } from '../support/use-stack';

/** Tickets and RSVP (cal/tickets/v1, docs/tickets.md): the ticket CRUD, registration and capacity. */

const { api, tokens } = await useStack({
  tokens: { editor: 'editor', admin: 'administrator', author: ['author', 'user-author'], other: 'author' },
});
const WHEN = { start_date: '2027-08-01 10:00:00', end_date: '2027-08-01 11:00:00' };
const t = (path: string) => `${api.origin}/cal/tickets/v1${path}`;
const asEditor = { token: tokens.editor };

async function event(body: Record<string, unknown> = {}, token = tokens.editor): Promise<number> {
  const res = await api.post(
    '/events',
    { title: 'Ticketed', status: 'publish', ...WHEN, ...body },
    { token },
  );
  expect(res.status).toBe(201);
  return res.body.id;
}

async function ticket(body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await api.post(t('/tickets'), { title: 'Entry', ...body }, asEditor);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const register = (ticket_id: number, n: number | string, extra: Record<string, unknown> = {}) =>
  api.post(t('/attendees'), { ticket_id, full_name: `Guest ${n}`, email: `guest${n}@example.com`, ...extra });

describe('the tickets namespace', () => {
  it('has its own index listing its routes', async () => {
    const res = await api.get(t(''));
    expect(res.status).toBe(200);
    expect(res.body.namespace).toBe('cal/tickets/v1');
    expect(Object.keys(res.body.routes)).toEqual(
      expect.arrayContaining(['/cal/tickets/v1/tickets', '/cal/tickets/v1/attendees/(?P<id>\\d+)']),
    );
    const events = await api.get('');
    expect(Object.keys(events.body.routes).some((r) => r.includes('tickets'))).toBe(false);
    // Routing below the namespace is the events namespace's: trailing slash ignored, 405 with Allow, 404.
    expect((await api.get(t('/tickets/'))).status).toBe(200);
    const wrong = await api.call('PUT', t('/tickets'));
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toContain('POST');
    expect((await api.get(t('/nothing'))).body.code).toBe('rest_no_route');
    expect((await api.get('/tickets')).status).toBe(404);
    // The typed client calls the operations at their namespace.
    const postId = await event();
    const made = await api.client.createTicket({
      body: { post_id: postId, title: 'Typed' },
      token: tokens.editor,
    });
    expect(made.data.rest_url).toBe(t(`/tickets/${made.data.id}`));
    const titles = [];
    for await (const x of api.client.items('listTickets', { query: { post_id: postId } }))
      titles.push(x.title);
    expect(titles).toEqual(['Typed']);
    const doc = await api.get('/doc');
    expect(doc.body.paths['/tickets'].get.servers[0].url).toMatch(/\/cal\/tickets\/v1\/$/);
  });
});

describe('tickets', () => {
  it('creates, reads, lists, updates and deletes a ticket in the reference shape', async () => {
    const postId = await event();
    const made = await ticket({ post_id: postId, provider: 'tickets', capacity: 10, description: 'Door' });
    expect(made).toMatchObject({
      post_id: postId,
      provider: 'tickets',
      title: 'Entry',
      status: 'publish',
      capacity: 10,
      capacity_details: { available: 10, available_percentage: 100, max: 10, sold: 0, pending: 0 },
      is_available: true,
      cost: '0',
      rsvp: { rsvp_going: 0, rsvp_not_going: 0 },
      checkin: { checked_in: 0, unchecked_in: 0 },
      attendees: [],
    });
    expect(made.rest_url).toBe(t(`/tickets/${made.id}`));
    const read = await api.get(t(`/tickets/${made.id}`));
    expect(read.status).toBe(200);
    expect(read.body.attendees).toBeUndefined();
    const list = await api.get(t(`/tickets?post_id=${postId}`));
    expect(list.body.tickets.map((x: { id: number }) => x.id)).toEqual([made.id]);
    expect(list.body.total).toBe(1);
    const changed = await api.put(t(`/tickets/${made.id}`), { capacity: 5, title: 'Entrance' }, asEditor);
    expect(changed.body).toMatchObject({ capacity: 5, title: 'Entrance' });
    expect((await api.del(t(`/tickets/${made.id}`), asEditor)).status).toBe(200);
    expect((await api.get(t(`/tickets/${made.id}`))).status).toBe(404);
  });

  it('refuses a price: payments are not offered', async () => {
    const res = await api.post(t('/tickets'), { post_id: await event(), title: 'Paid', cost: 10 }, asEditor);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_payments_not_offered');
  });

  it('lets only editors write tickets, and hides tickets of events the caller cannot see', async () => {
    const postId = await event();
    expect((await api.post(t('/tickets'), { post_id: postId, title: 'x' })).status).toBe(401);
    expect(
      (await api.post(t('/tickets'), { post_id: postId, title: 'x' }, { token: tokens.author })).status,
    ).toBe(403);
    expect((await api.post(t('/tickets'), { post_id: 999999, title: 'x' }, asEditor)).status).toBe(404);
    const draft = await event({ status: 'draft' });
    const hidden = await ticket({ post_id: draft });
    expect((await api.get(t(`/tickets/${hidden.id}`))).status).toBe(404);
    expect((await api.get(t(`/tickets/${hidden.id}`), asEditor)).status).toBe(200);
    const list = await api.get(t(`/tickets?include_post=${draft}`));
    expect(list.body.total).toBe(0);
  });

  it('filters by provider and availability', async () => {
    const postId = await event();
    const rsvp = await ticket({ post_id: postId, provider: 'rsvp' });
    const closed = await ticket({ post_id: postId, provider: 'tickets', available_until: '2001-01-01' });
    const rsvps = await api.get(t(`/tickets?post_id=${postId}&provider=rsvp`));
    expect(rsvps.body.tickets.map((x: { id: number }) => x.id)).toEqual([rsvp.id]);
    const unavailable = await api.get(t(`/tickets?post_id=${postId}&is_available=false`));
    expect(unavailable.body.tickets.map((x: { id: number }) => x.id)).toEqual([closed.id]);
    expect((await register(closed.id, 'late')).body.code).toBe('ticket_not_available');
    // Parameters the reference's archive does not take are refused, not ignored (docs/tickets.md).
    expect((await api.get(t('/tickets?capacity_minimum=3'))).status).toBe(400);
  });
});

describe('attendees', () => {
  it('registers anyone for a published event, never shows the e-mail publicly, and checks in', async () => {
    const postId = await event();
    const rsvp = await ticket({ post_id: postId, provider: 'rsvp', capacity: 3 });
    const going = await register(rsvp.id, 'a');
    expect(going.status).toBe(201);
    expect(going.body).toMatchObject({
      ticket_id: rsvp.id,
      post_id: postId,
      rsvp_going: true,
      title: 'Guest a',
    });
    expect(going.body.token).toMatch(/^[\w-]{20,}$/);
    const notGoing = await register(rsvp.id, 'b', { attendee_status: 'not going' });
    expect(notGoing.body.rsvp_going).toBe(false);

    const publicTicket = await api.get(t(`/tickets/${rsvp.id}`));
    expect(publicTicket.body.rsvp).toEqual({ rsvp_going: 1, rsvp_not_going: 1 });
    expect(publicTicket.body.capacity_details.available).toBe(2);
    expect(JSON.stringify(publicTicket.body)).not.toContain('@example.com');
    const editorTicket = await api.get(t(`/tickets/${rsvp.id}`), asEditor);
    expect(editorTicket.body.attendees.map((a: { email: string }) => a.email)).toContain(
      'guesta@example.com',
    );

    expect((await api.get(t('/attendees'))).status).toBe(401);
    expect((await api.get(t(`/attendees?post_id=${postId}`), { token: tokens.other })).status).toBe(403);
    expect((await api.get(t(`/attendees/${going.body.id}`), { token: tokens.other })).status).toBe(403);
    const list = await api.get(t(`/attendees?ticket_id=${rsvp.id}`), asEditor);
    expect(list.body.total).toBe(2);

    const checked = await api.put(t(`/attendees/${going.body.id}`), { check_in: true }, asEditor);
    expect(checked.status).toBe(200);
    expect(checked.body.checked_in).toBe(true);
    // Checking in twice counts once.
    await api.put(t(`/attendees/${going.body.id}`), { check_in: true }, asEditor);
    const after = await api.get(t(`/tickets/${rsvp.id}`));
    expect(after.body.checkin).toMatchObject({ checked_in: 1, unchecked_in: 0, checked_in_percentage: 100 });
    const checkedIn = await api.get(t(`/attendees?post_id=${postId}&checkedin=true`), asEditor);
    expect(checkedIn.body.attendees.map((a: { id: number }) => a.id)).toEqual([going.body.id]);
  });

  it("lets the event's author list its attendees", async () => {
    const postId = await event({}, tokens.author);
    const rsvp = await ticket({ post_id: postId });
    await register(rsvp.id, 'c');
    const list = await api.get(t(`/attendees?post_id=${postId}`), { token: tokens.author });
    expect(list.status).toBe(200);
    expect(list.body.attendees[0].email).toBe('guestc@example.com');
  });

  it('refuses registrations for an event that is not published', async () => {
    const draft = await ticket({ post_id: await event({ status: 'draft' }) });
    expect((await register(draft.id, 'd')).status).toBe(404);
  });

  it('never exceeds the capacity: 100 concurrent registrations for 20 seats give exactly 20', async () => {
    const seats = await ticket({ post_id: await event(), provider: 'tickets', capacity: 20 });
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => register(seats.id, `r${i}`)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses.filter((s) => s === 409)).toHaveLength(80);
    expect(answers.find((a) => a.status === 409)!.body.code).toBe('sold_out');
    const read = await api.get(t(`/tickets/${seats.id}`), asEditor);
    expect(read.body.capacity_details).toMatchObject({ sold: 20, available: 0 });
    expect(read.body.is_available).toBe(false);
    expect(read.body.attendees).toHaveLength(20);
  }, 60_000);

  it('frees a seat exactly once when a registration is cancelled, by its token or an editor', async () => {
    const seats = await ticket({ post_id: await event(), provider: 'tickets', capacity: 1 });
    const first = await register(seats.id, 'e');
    expect((await register(seats.id, 'f')).status).toBe(409);
    const { id, token } = first.body;
    expect((await api.del(t(`/attendees/${id}`))).status).toBe(403);
    expect((await api.del(t(`/attendees/${id}?token=wrong`))).status).toBe(403);
    // Two cancellations race: one frees the seat, the other finds it cancelled.
    const both = await Promise.all([
      api.del(t(`/attendees/${id}?token=${token}`)),
      api.del(t(`/attendees/${id}`), asEditor),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 410]);
    const read = await api.get(t(`/tickets/${seats.id}`));
    expect(read.body.capacity_details).toMatchObject({ sold: 0, available: 1 });
    expect((await register(seats.id, 'g')).status).toBe(201);
    expect((await register(seats.id, 'h')).status).toBe(409);
  });

  it('offers the waitlist when full, and gives each freed seat to the first waiting, exactly once', async () => {
    const seats = await ticket({ post_id: await event(), provider: 'tickets', capacity: 2 });
    const [a, b] = [await register(seats.id, 'wa'), await register(seats.id, 'wb')];
    const full = await register(seats.id, 'wc');
    expect(full.status).toBe(409);
    expect(full.body.data.waitlist).toEqual({ available: true, join: { waitlist: true } });
    const c = await register(seats.id, 'wc', { waitlist: true });
    const d = await register(seats.id, 'wd', { waitlist: true });
    const e = await register(seats.id, 'we', { waitlist: true });
    expect([c, d, e].map((r) => [r.status, r.body.status])).toEqual([
      [201, 'waitlist'],
      [201, 'waitlist'],
      [201, 'waitlist'],
    ]);
    // Two seats freed at once go to the first two waiting, one each; the third still waits.
    const cancelled = await Promise.all([
      api.del(t(`/attendees/${a.body.id}?token=${a.body.token}`)),
      api.del(t(`/attendees/${b.body.id}?token=${b.body.token}`)),
    ]);
    expect(cancelled.map((r) => r.status)).toEqual([200, 200]);
    const status = async (id: number) => (await api.get(t(`/attendees/${id}`), asEditor)).body.status;
    expect([await status(c.body.id), await status(d.body.id), await status(e.body.id)]).toEqual([
      'going',
      'going',
      'waitlist',
    ]);
    expect((await api.get(t(`/tickets/${seats.id}`))).body.capacity_details).toMatchObject({
      sold: 2,
      available: 0,
    });
    // Leaving the waitlist frees nothing; then a cancellation with nobody waiting frees the seat.
    expect((await api.del(t(`/attendees/${e.body.id}?token=${e.body.token}`))).status).toBe(200);
    expect((await api.del(t(`/attendees/${c.body.id}`), asEditor)).status).toBe(200);
    expect((await api.get(t(`/tickets/${seats.id}`))).body.capacity_details).toMatchObject({
      sold: 1,
      available: 1,
    });
    // A seat is free: a registration asking for the waitlist gets the seat.
    expect((await register(seats.id, 'wf', { waitlist: true })).body.status).toBe('going');
  });

  it('keeps a ticket with attendees from being deleted', async () => {
    const seats = await ticket({ post_id: await event() });
    await register(seats.id, 'i');
    const res = await api.del(t(`/tickets/${seats.id}`), asEditor);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('ticket_has_attendees');
    // Nor moved to another event (its attendees registered for this one).
    const moved = await api.put(t(`/tickets/${seats.id}`), { post_id: await event() }, asEditor);
    expect(moved.status).toBe(409);
    expect(moved.body.code).toBe('ticket_has_attendees');
    expect((await api.put(t(`/tickets/${seats.id}`), { post_id: seats.post_id }, asEditor)).status).toBe(200);
  });
});

describe('the events list', () => {
  it('filters ticketed=true|false: an event is ticketed while it has a ticket (issue 42, decisions §5)', async () => {
    const day = { start_date: '2029-05-05 10:00:00', end_date: '2029-05-05 11:00:00' };
    const withTicket = await event(day);
    const without = await event(day);
    const made = await ticket({ post_id: withTicket });
    const window = 'start_date=2029-05-05&end_date=2029-05-05';
    const ids = async (q: string) =>
      ((await api.get(`/events?${window}&${q}`)).body.events ?? []).map((e: { id: number }) => e.id);
    expect(await ids('ticketed=true')).toEqual([withTicket]);
    expect(await ids('ticketed=false')).toEqual([without]);
    await api.del(t(`/tickets/${made.id}`), asEditor);
    expect(await ids('ticketed=true')).toEqual([]);
  });
});
