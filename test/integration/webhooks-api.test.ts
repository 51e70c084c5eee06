import { afterEach, describe, expect, it } from 'vitest';
import { useStack } from '../support/use-stack';

/** The subscriptions API: administrators only, secrets shown once, destinations checked when saved. */

const { api, tokens } = await useStack({
  tokens: { admin: 'administrator', editor: 'editor' },
});
const asAdmin = { token: tokens.admin };
const receiver = 'http://127.0.0.1:9/hooks';

const subscribe = (body: Record<string, unknown>) => api.post('/webhooks', body, asAdmin);

afterEach(() => {
  process.env.CAL_OUTBOUND_LOCAL = '1';
});

describe('webhook subscriptions', () => {
  it('answers anonymous callers 401 and editors 403, in the error envelope', async () => {
    for (const [method, path] of [
      ['GET', '/webhooks'],
      ['POST', '/webhooks'],
      ['GET', '/webhooks/1'],
      ['GET', '/webhooks/1/deliveries'],
      ['POST', '/webhooks/1/deliveries/msg_x/retry'],
    ] as const) {
      const body = method === 'POST' ? { url: receiver, events: ['*'] } : undefined;
      const anonymous = await api.call(method, path, { body });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.data.status).toBe(401);
      const editor = await api.call(method, path, { body, token: tokens.editor });
      expect(editor.status).toBe(403);
      expect(editor.body.code).toBe('rest_forbidden');
    }
  });

  it('creates a subscription with a Standard Webhooks secret shown only in that answer', async () => {
    const made = await subscribe({ url: receiver, events: ['event.*', 'venue.updated'], description: 'crm' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      url: receiver,
      events: ['event.*', 'venue.updated'],
      description: 'crm',
      active: true,
      visibility: 'public',
    });
    expect(made.headers.get('location')).toBe(made.body.rest_url);
    const secret = made.body.secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);

    const read = await api.get(`/webhooks/${made.body.id}`, asAdmin);
    expect(read.status).toBe(200);
    expect(read.body.secret).toBeUndefined();
    expect(JSON.stringify(read.body)).not.toContain(secret.slice(6));
    const list = await api.get('/webhooks', asAdmin);
    expect(list.body.webhooks.map((w: { id: number }) => w.id)).toContain(made.body.id);
    expect(JSON.stringify(list.body)).not.toContain(secret.slice(6));
  });

  it('changes, rotates and deletes a subscription', async () => {
    const made = await subscribe({ url: receiver, events: ['*'] });
    const id = made.body.id;
    const changed = await api.patch(`/webhooks/${id}`, { active: false, visibility: 'editor' }, asAdmin);
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ active: false, visibility: 'editor', events: ['*'] });

    const rotated = await api.post(`/webhooks/${id}/rotate-secret`, undefined, asAdmin);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(made.body.secret);

    expect((await api.del(`/webhooks/${id}`, asAdmin)).status).toBe(200);
    const gone = await api.get(`/webhooks/${id}`, asAdmin);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('rest_webhook_not_found');
    expect((await api.patch(`/webhooks/${id}`, { active: true }, asAdmin)).status).toBe(404);
  });

  it('refuses unknown event types and malformed bodies with a 400 naming the parameter', async () => {
    const badType = await subscribe({ url: receiver, events: ['event.exploded'] });
    expect(badType.status).toBe(400);
    expect(badType.body.data.params).toHaveProperty('events');
    const noEvents = await subscribe({ url: receiver, events: [] });
    expect(noEvents.status).toBe(400);
    const missing = await subscribe({ events: ['*'] });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('rest_missing_callback_param');
  });

  it.each([
    ['ftp://127.0.0.1/x', /only http and https/],
    ['http://10.0.0.1/hook', /10\.0\.0\.1 is a private address/],
    ['https://169.254.169.254/latest/meta-data', /link-local/],
    ['https://100.64.1.1/', /carrier-grade NAT/],
    ['https://user:pw@127.0.0.1/', /user name or password/],
    // Issue 43: IPv4-compatible IPv6 addresses (`::/96`) passed, deployed too.
    ['http://[::169.254.169.254]/', /IPv4-compatible address of 169\.254\.169\.254, a link-local address/],
    ['https://[::127.0.0.1]/', /IPv4-compatible address/],
    ['https://[::ffff:10.0.0.1]/', /IPv4-mapped address of 10\.0\.0\.1, a private address/],
  ])('refuses the destination %s', async (url, why) => {
    const res = await subscribe({ url, events: ['*'] });
    expect(res.status).toBe(400);
    expect(res.body.data.params.url).toMatch(why);
  });

  it('refuses loopback and plain http when deployed (the local setting off)', async () => {
    process.env.CAL_OUTBOUND_LOCAL = '0';
    const loopback = await subscribe({ url: 'https://127.0.0.1/hook', events: ['*'] });
    expect(loopback.status).toBe(400);
    expect(loopback.body.data.params.url).toMatch(/loopback/);
    const http = await subscribe({ url: 'http://93.184.215.14/hook', events: ['*'] });
    expect(http.body.data.params.url).toMatch(/only https/);
  });

  it('lists no deliveries for a new subscription, and retries only failed ones', async () => {
    const made = await subscribe({ url: receiver, events: ['*'], active: false });
    const page = await api.get(`/webhooks/${made.body.id}/deliveries`, asAdmin);
    expect(page.status).toBe(200);
    expect(page.body.deliveries).toEqual([]);
    const unknown = await api.post(
      `/webhooks/${made.body.id}/deliveries/msg_nothing/retry`,
      undefined,
      asAdmin,
    );
    expect(unknown.status).toBe(404);
    const badCursor = await api.get(`/webhooks/${made.body.id}/deliveries?cursor=nonsense`, asAdmin);
    expect(badCursor.status).toBe(400);
  });

  it('queues a ping as a pending delivery', async () => {
    const made = await subscribe({ url: receiver, events: ['*'] });
    const ping = await api.post(`/webhooks/${made.body.id}/ping`, undefined, asAdmin);
    expect(ping.status).toBe(200);
    expect(ping.body).toMatchObject({ type: 'webhook.ping', status: 'pending', attempts: [] });
    const page = await api.get(`/webhooks/${made.body.id}/deliveries`, asAdmin);
    expect(page.body.deliveries.map((d: { id: string }) => d.id)).toEqual([ping.body.id]);
  });
});
