import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookEngine, type WebhookEngine } from '../../local/webhooks';
import { useStack } from '../support/use-stack';
import { eventually, type Receiver, startReceiver } from '../support/webhook-receiver';

/**
 * ticket.* and attendee.* (docs/tickets.md, "Webhooks and the change feed"): the change log of ticket
 * and attendee writes, told to subscribers and change-feed readers as each may see them; attendees
 * (and their e-mail addresses) only to those who may manage them.
 */
process.env.CHANGES_SETTLE_SECONDS = '0';

const { api, tokens } = await useStack({
  tokens: { admin: 'administrator', editor: 'editor', author: ['author', 'user-author'] },
});
const t = (path: string) => `${api.origin}/cal/tickets/v1${path}`;

let engine: WebhookEngine;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
  engine = await startWebhookEngine({
    endpoint: process.env.DYNAMODB_ENDPOINT!,
    tableName: process.env.TABLE_NAME!,
    log: () => {},
  });
});
afterAll(async () => {
  await engine?.stop();
  await receiver?.close();
});

async function subscribe(path: string, visibility: 'public' | 'editor') {
  const res = await api.post(
    '/webhooks',
    { url: `${receiver.base}${path}`, events: ['ticket.*', 'attendee.*'], visibility },
    { token: tokens.admin },
  );
  expect(res.status).toBe(201);
}

describe('ticket and attendee events', () => {
  it('are told to subscribers as they may see them, e-mail addresses to editors only', async () => {
    await subscribe('/public', 'public');
    await subscribe('/editor', 'editor');
    const event = await api.post(
      '/events',
      {
        title: 'Fair',
        status: 'publish',
        start_date: '2027-11-01 10:00:00',
        end_date: '2027-11-01 18:00:00',
      },
      { token: tokens.author },
    );
    const ticket = await api.post(
      t('/tickets'),
      { post_id: event.body.id, title: 'Entry', capacity: 10 },
      { token: tokens.editor },
    );
    const reg = await api.post(t('/attendees'), {
      ticket_id: ticket.body.id,
      full_name: 'Radia',
      email: 'radia@example.com',
    });
    expect(reg.status).toBe(201);
    expect(
      (await api.put(t(`/attendees/${reg.body.id}`), { check_in: true }, { token: tokens.editor })).status,
    ).toBe(200);
    expect(
      (await api.patch(t(`/tickets/${ticket.body.id}`), { title: 'Day pass' }, { token: tokens.editor }))
        .status,
    ).toBe(200);
    expect((await api.del(t(`/attendees/${reg.body.id}`), { token: tokens.editor })).status).toBe(200);

    const editor = await eventually('the editor subscription’s five deliveries', () => {
      const got = receiver.at('/editor');
      return got.length >= 5 && got;
    });
    expect(editor.map((r) => r.json.type)).toEqual([
      'ticket.created',
      'attendee.created',
      'attendee.updated',
      'ticket.updated',
      'attendee.removed',
    ]);
    const created = editor[1]!.json.data;
    expect(created).toMatchObject({
      resource: 'attendees',
      id: reg.body.id,
      rest_url: `http://calendar.test/cal/tickets/v1/attendees/${reg.body.id}`,
    });
    expect(created.record).toMatchObject({ id: reg.body.id, email: 'radia@example.com' });
    expect(editor[2]!.json.data.record).toMatchObject({ checked_in: true });
    expect(editor[0]!.json.data.rest_url).toBe(
      `http://calendar.test/cal/tickets/v1/tickets/${ticket.body.id}`,
    );

    const pub = await eventually('the public subscription’s two deliveries', () => {
      const got = receiver.at('/public');
      return got.length >= 2 && got;
    });
    // Give the engine time for anything more it might (wrongly) send the public subscription.
    await eventually('the editor’s deliveries all dispatched', () => receiver.at('/editor').length >= 5);
    expect(pub.map((r) => r.json.type)).toEqual(['ticket.created', 'ticket.updated']);
    expect(pub[1]!.json.data.record).toMatchObject({ id: ticket.body.id, title: 'Day pass' });
    for (const r of pub) expect(r.body).not.toContain('@example.com');
  });

  it('are in the change feed, attendees only for those who manage them', async () => {
    const event = await api.post(
      '/events',
      {
        title: 'Talk',
        status: 'publish',
        start_date: '2027-11-02 10:00:00',
        end_date: '2027-11-02 11:00:00',
      },
      { token: tokens.author },
    );
    const ticket = await api.post(
      t('/tickets'),
      { post_id: event.body.id, title: 'Seat' },
      { token: tokens.editor },
    );
    const reg = await api.post(t('/attendees'), {
      ticket_id: ticket.body.id,
      full_name: 'Hedy',
      email: 'hedy@example.com',
    });
    const feed = async (token?: string) => {
      const res = await api.get('/changes?per_page=100', token ? { token } : {});
      expect(res.status).toBe(200);
      return res.body.changes as Array<{ resource: string; id: number; action: string; rest_url: string }>;
    };
    const anonymous = await feed();
    expect(anonymous).toContainEqual(
      expect.objectContaining({
        resource: 'tickets',
        id: ticket.body.id,
        action: 'created',
        rest_url: t(`/tickets/${ticket.body.id}`),
      }),
    );
    expect(anonymous.some((c) => c.resource === 'attendees')).toBe(false);
    for (const token of [tokens.editor, tokens.author])
      expect(await feed(token)).toContainEqual(
        expect.objectContaining({ resource: 'attendees', id: reg.body.id, action: 'created' }),
      );
  });
});
