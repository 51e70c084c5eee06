import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ddb, tableName } from '../../shared/db/client';
import { keys } from '../../shared/db/keys';
import { finishJournal } from '../../shared/services/series';
import { useStack } from '../support/use-stack';

/**
 * Deleting an event with attendees (docs/tickets.md, "Deleting an event"): the trash keeps them; a
 * permanent delete removes the event's tickets, attendees and their mails with it, in transactions
 * within DynamoDB's 100 items, and says how many attendees went.
 */

const { api, tokens } = await useStack({ tokens: { editor: 'editor' } });
const t = (path: string) => `${api.origin}/cal/tickets/v1${path}`;
const asEditor = { token: tokens.editor };
type Rec = Record<string, any>;

afterEach(() => {
  vi.restoreAllMocks();
});

async function eventWithTicket(title: string, capacity = -1): Promise<{ event: Rec; ticket: Rec }> {
  const event = await api.post(
    '/events',
    { title, status: 'publish', start_date: '2027-12-05 18:00:00', end_date: '2027-12-05 20:00:00' },
    asEditor,
  );
  expect(event.status).toBe(201);
  const ticket = await api.post(
    t('/tickets'),
    { post_id: event.body.id, title: 'Entry', capacity },
    asEditor,
  );
  expect(ticket.status).toBe(201);
  return { event: event.body, ticket: ticket.body };
}

const register = async (ticket_id: number, n: number | string, extra: Rec = {}): Promise<Rec> => {
  const res = await api.post(t('/attendees'), {
    ticket_id,
    full_name: `Guest ${n}`,
    email: `guest-${n}@example.com`,
    ...extra,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};

async function inBatches<T>(n: number, size: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i += size)
    out.push(...(await Promise.all(Array.from({ length: Math.min(size, n - i) }, (_, j) => fn(i + j)))));
  return out;
}

const stored = async (key: { pk: string; sk: string }) =>
  (await ddb.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

describe('deleting an event with attendees', () => {
  it('keeps them in the trash; a permanent delete removes tickets, attendees and mails and counts them', async () => {
    const { event, ticket } = await eventWithTicket('Gala', 2);
    const second = (
      await api.post(t('/tickets'), { post_id: event.id, title: 'RSVP', provider: 'rsvp' }, asEditor)
    ).body;
    const going = await register(ticket.id, 'a');
    await register(ticket.id, 'b');
    const waiting = await register(ticket.id, 'c', { waitlist: true });
    const notGoing = await register(second.id, 'd', { attendee_status: 'not going' });
    const cancelled = await register(second.id, 'e');
    expect((await api.del(t(`/attendees/${cancelled.id}`), asEditor)).status).toBe(200);
    expect(waiting.status).toBe('waitlist');
    expect(await stored(keys.mail(going.id, 'confirmation'))).toBeDefined();

    const trashed = await api.del(`/events/${event.id}`, asEditor);
    expect(trashed.status).toBe(200);
    expect(trashed.body.status).toBe('trash');
    expect(trashed.body.attendees_deleted).toBeUndefined();
    expect((await api.get(t(`/attendees?post_id=${event.id}`), asEditor)).body.total).toBe(4);
    expect((await api.get(t(`/tickets/${ticket.id}`), asEditor)).status).toBe(200);

    const gone = await api.del(`/events/${event.id}?force=true`, asEditor);
    expect(gone.status).toBe(200);
    expect(gone.body.id).toBe(event.id);
    // Going (2), waiting (1) and not going (1); the cancelled registration goes too, uncounted.
    expect(gone.body.attendees_deleted).toBe(4);
    expect((await api.get(`/events/${event.id}`, asEditor)).status).toBe(404);
    for (const id of [ticket.id, second.id]) {
      expect((await api.get(t(`/tickets/${id}`), asEditor)).status).toBe(404);
      expect(await stored(keys.ticket(id))).toBeUndefined();
    }
    for (const a of [going, waiting, notGoing, cancelled]) {
      expect((await api.get(t(`/attendees/${a.id}`), asEditor)).status).toBe(404);
      expect(await stored(keys.attendee(a.id))).toBeUndefined();
      expect(await stored(keys.mail(a.id, 'confirmation'))).toBeUndefined();
    }
    const all = await api.get(t('/attendees?status=any&per_page=50'), asEditor);
    expect(all.body.attendees.filter((a: Rec) => a.post_id === event.id)).toEqual([]);
  });

  it('answers attendees_deleted 0 for an event without tickets, by slug too', async () => {
    const plain = await api.post(
      '/events',
      {
        title: 'Plain',
        status: 'publish',
        start_date: '2027-12-06 18:00:00',
        end_date: '2027-12-06 19:00:00',
      },
      asEditor,
    );
    const res = await api.del(`/events/by-slug/${plain.body.slug}?force=true`, asEditor);
    expect(res.status).toBe(200);
    expect(res.body.attendees_deleted).toBe(0);
    const { event, ticket } = await eventWithTicket('Slugged');
    await register(ticket.id, 'slug-1');
    const bySlug = await api.del(`/events/by-slug/${event.slug}?force=true`, asEditor);
    expect(bySlug.body.attendees_deleted).toBe(1);
    expect((await api.get(t(`/tickets/${ticket.id}`), asEditor)).status).toBe(404);
  });

  it('removes more attendees than one transaction holds, in steps', async () => {
    const { event, ticket } = await eventWithTicket('Crowd');
    const crowd = await inBatches(70, 10, (i) => register(ticket.id, `crowd-${i}`));
    const sizes: number[] = [];
    const real = ddb.send.bind(ddb) as (command: unknown, ...rest: unknown[]) => Promise<unknown>;
    vi.spyOn(ddb, 'send').mockImplementation(((command: unknown, ...rest: unknown[]) => {
      if (command instanceof TransactWriteCommand) sizes.push(command.input.TransactItems!.length);
      return real(command, ...rest);
    }) as never);

    const res = await api.del(`/events/${event.id}?force=true`, asEditor);

    expect(res.status).toBe(200);
    expect(res.body.attendees_deleted).toBe(70);
    // 70 attendees and 70 mails: more than one transaction's 100 items, none over it.
    expect(sizes.length).toBeGreaterThanOrEqual(2);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(100);
    vi.restoreAllMocks();
    for (const a of [crowd[0]!, crowd[35]!, crowd[69]!])
      expect(await stored(keys.attendee(a.id))).toBeUndefined();
    expect(
      (await api.get(t('/attendees?status=any&per_page=50'), asEditor)).body.attendees.filter(
        (a: Rec) => a.post_id === event.id,
      ),
    ).toEqual([]);
  }, 180_000);

  it('takes along a registration that lands while the delete runs: its last step fails, is undone and redone', async () => {
    const { event, ticket } = await eventWithTicket('Racing', 200);
    const early = await inBatches(60, 10, (i) => register(ticket.id, `early-${i}`));
    let late: Rec | undefined;
    const real = ddb.send.bind(ddb) as (command: unknown, ...rest: unknown[]) => Promise<unknown>;
    const eventKey = JSON.stringify(keys.post(event.id));
    vi.spyOn(ddb, 'send').mockImplementation((async (command: unknown, ...rest: unknown[]) => {
      const items = command instanceof TransactWriteCommand ? command.input.TransactItems! : [];
      const last = items.some((i) => i.Delete && JSON.stringify(i.Delete.Key) === eventKey);
      // Before the delete's last step commits, somebody registers: its ticket no longer counts as read.
      if (last && !late) late = await register(ticket.id, 'late');
      return real(command, ...rest);
    }) as never);

    const res = await api.del(`/events/${event.id}?force=true`, asEditor);

    vi.restoreAllMocks();
    expect(late).toBeDefined();
    expect(res.status).toBe(200);
    expect(res.body.attendees_deleted).toBe(61);
    for (const a of [early[0]!, early[59]!, late!]) {
      expect(await stored(keys.attendee(a.id))).toBeUndefined();
      expect(await stored(keys.mail(a.id, 'confirmation'))).toBeUndefined();
    }
    expect(await stored(keys.ticket(ticket.id))).toBeUndefined();
  }, 180_000);

  it('removes the tickets and attendees of the occurrences a permanent delete of part of a series takes', async () => {
    const created = await api.post(
      '/events',
      {
        title: 'Choir',
        status: 'publish',
        start_date: '2027-03-02 19:00:00',
        end_date: '2027-03-02 21:00:00',
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4'],
      },
      asEditor,
    );
    expect([201, 202], JSON.stringify(created.body)).toContain(created.status);
    await finishJournal(created.body.series_id, Number.POSITIVE_INFINITY);
    const listed = await api.get(
      `/events?series=${created.body.id}&start_date=2027-01-01&end_date=2027-12-31`,
      asEditor,
    );
    const [first, second, third, fourth] = listed.body.events as Rec[];
    const ticketOf = async (event: Rec) =>
      (await api.post(t('/tickets'), { post_id: event.id, title: 'Seat', capacity: 10 }, asEditor)).body;
    const [early, kept, late] = [await ticketOf(first!), await ticketOf(second!), await ticketOf(fourth!)];
    const earlyGuest = await register(early.id, 'early');
    await register(kept.id, 'kept');
    const lateGuests = [await register(late.id, 'late-1'), await register(late.id, 'late-2')];

    // The third occurrence on: the fourth's ticket and its two attendees go, the second's stay.
    const following = await api.del(`/events/${third!.id}?force=true&scope=following`, asEditor);
    expect(following.status, JSON.stringify(following.body)).toBe(200);
    expect(following.body.attendees_deleted).toBe(2);
    expect((await api.get(t(`/tickets/${late.id}`), asEditor)).status).toBe(404);
    for (const a of lateGuests) {
      expect((await api.get(t(`/attendees/${a.id}`), asEditor)).status).toBe(404);
      expect(await stored(keys.mail(a.id, 'confirmation'))).toBeUndefined();
    }
    expect((await api.get(t(`/tickets/${kept.id}`), asEditor)).status).toBe(200);

    const all = await api.del(`/events/${first!.id}?force=true&scope=all`, asEditor);
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.attendees_deleted).toBe(2);
    for (const ticket of [early, kept]) expect(await stored(keys.ticket(ticket.id))).toBeUndefined();
    expect((await api.get(t(`/attendees/${earlyGuest.id}`), asEditor)).status).toBe(404);
    expect((await api.get(t('/tickets'), asEditor)).body.tickets ?? []).toEqual([]);
  }, 180_000);
});
