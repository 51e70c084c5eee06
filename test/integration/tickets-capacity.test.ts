import { describe, expect, it } from 'vitest';
import { useStack } from '../support/use-stack';

/** Raising a ticket's capacity promotes from the waitlist (docs/tickets.md, "Waitlist"). */

const { api, tokens } = await useStack({ tokens: { editor: 'editor' } });
const t = (path: string) => `${api.origin}/cal/tickets/v1${path}`;
const asEditor = { token: tokens.editor };

describe('a capacity raised', () => {
  it('gives its new seats to those waiting, first come first served, each once', async () => {
    const event = await api.post(
      '/events',
      {
        title: 'Play',
        status: 'publish',
        start_date: '2027-12-01 19:00:00',
        end_date: '2027-12-01 21:00:00',
      },
      asEditor,
    );
    const ticket = await api.post(
      t('/tickets'),
      { post_id: event.body.id, title: 'Seat', capacity: 1 },
      asEditor,
    );
    const reg = (n: number) =>
      api.post(t('/attendees'), {
        ticket_id: ticket.body.id,
        full_name: `Guest ${n}`,
        email: `g${n}@example.com`,
        waitlist: true,
      });
    expect((await reg(0)).body.status).toBe('going');
    const waiting = [];
    for (const n of [1, 2, 3]) waiting.push((await reg(n)).body);
    expect(waiting.map((a) => a.status)).toEqual(['waitlist', 'waitlist', 'waitlist']);

    const raised = await api.patch(t(`/tickets/${ticket.body.id}`), { capacity: 3 }, asEditor);
    expect(raised.status).toBe(200);
    expect(raised.body.capacity_details).toMatchObject({ max: 3, sold: 3, available: 0 });
    const status = async (id: number) => (await api.get(t(`/attendees/${id}`), asEditor)).body.status;
    expect([await status(waiting[0].id), await status(waiting[1].id), await status(waiting[2].id)]).toEqual([
      'going',
      'going',
      'waitlist',
    ]);

    // Unlimited: the last one waiting gets a seat too.
    const open = await api.patch(t(`/tickets/${ticket.body.id}`), { capacity: -1 }, asEditor);
    expect(open.body.capacity_details.sold).toBe(4);
    expect(await status(waiting[2].id)).toBe('going');
  });
});
