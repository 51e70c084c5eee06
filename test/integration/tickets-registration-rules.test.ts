import { afterEach, describe, expect, it } from 'vitest';
import { useStack } from '../support/use-stack';

/**
 * The rules of a registration (docs/tickets.md): rate limits on anonymous registrations (per e-mail
 * address and per client address, counted in the registration's own transaction) and the answers to
 * a ticket's attendee information fields.
 */

const { api, tokens } = await useStack({ tokens: { editor: 'editor', subscriber: 'subscriber' } });
const t = (path: string) => `${api.origin}/cal/tickets/v1${path}`;
const asEditor = { token: tokens.editor };

async function ticketOf(body: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const event = await api.post(
    '/events',
    {
      title: 'Workshop',
      status: 'publish',
      start_date: '2027-10-01 10:00:00',
      end_date: '2027-10-01 12:00:00',
    },
    asEditor,
  );
  const res = await api.post(t('/tickets'), { post_id: event.body.id, title: 'Seat', ...body }, asEditor);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const register = (ticket_id: number, email: string, extra: Record<string, unknown> = {}, token?: string) =>
  api.post(t('/attendees'), { ticket_id, full_name: 'Guest', email, ...extra }, token ? { token } : {});

const sold = async (ticketId: number) =>
  (await api.get(t(`/tickets/${ticketId}`))).body.capacity_details.sold as number;

const saved = { ...process.env };
afterEach(() => {
  for (const k of [
    'REGISTRATION_LIMIT_PER_EMAIL',
    'REGISTRATION_LIMIT_PER_IP',
    'REGISTRATION_LIMIT_WINDOW_SECONDS',
  ])
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
});

describe('rate limits of anonymous registrations', () => {
  it('refuses the sixth registration of one address in an hour: 429 with Retry-After, nothing written', async () => {
    const seat = await ticketOf();
    for (let i = 0; i < 5; i++)
      expect((await register(seat.id, i % 2 ? 'Same@Example.com' : 'same@example.com')).status).toBe(201);

    const refused = await register(seat.id, 'SAME@example.com');
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('rest_too_many_registrations');
    expect(refused.body.data).toMatchObject({ status: 429, limit: 'email' });
    const retry = Number(refused.headers.get('retry-after'));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(3600);
    expect(refused.body.data.retry_after).toBe(retry);
    // Nothing was written: no seat taken, no attendee.
    expect(await sold(seat.id)).toBe(5);
    expect((await api.get(t(`/attendees?ticket_id=${seat.id}`), asEditor)).body.total).toBe(5);

    // Another address is not limited by it; a signed-in caller is not limited at all.
    expect((await register(seat.id, 'other@example.com')).status).toBe(201);
    expect((await register(seat.id, 'same@example.com', {}, tokens.subscriber)).status).toBe(201);
    expect((await register(seat.id, 'same@example.com', {}, tokens.editor)).status).toBe(201);
  });

  it('refuses registrations past the limit of one client address, whatever the e-mail addresses', async () => {
    process.env.REGISTRATION_LIMIT_PER_IP = '3';
    // A window of its own length: the counts of the file's other registrations are not in it.
    process.env.REGISTRATION_LIMIT_WINDOW_SECONDS = '7200';
    const seat = await ticketOf();
    for (const n of [1, 2, 3]) expect((await register(seat.id, `ip${n}@example.com`)).status).toBe(201);

    const refused = await register(seat.id, 'ip4@example.com');
    expect(refused.status).toBe(429);
    expect(refused.body.data.limit).toBe('ip');
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(7200);
    expect(refused.body.message).toContain('at most 3 in 2 hours');
    expect(await sold(seat.id)).toBe(3);
    // 0 turns the limit off.
    process.env.REGISTRATION_LIMIT_PER_IP = '0';
    expect((await register(seat.id, 'ip5@example.com')).status).toBe(201);
  });

  it('holds under concurrency: 20 racing registrations of one address give exactly 5', async () => {
    const seat = await ticketOf();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => register(seat.id, 'racer@example.com')),
    );
    const statuses = answers.map((a) => a.status).sort();

    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    expect(await sold(seat.id)).toBe(5);
  }, 60_000);

  it('counts only what is written: a sold-out answer or a bad registration takes nothing of the limit', async () => {
    process.env.REGISTRATION_LIMIT_PER_EMAIL = '2';
    const full = await ticketOf({ capacity: 1 });
    expect((await register(full.id, 'first@example.com')).status).toBe(201);
    for (let i = 0; i < 3; i++) expect((await register(full.id, 'late@example.com')).status).toBe(409);
    const open = await ticketOf();
    expect((await register(open.id, 'late@example.com')).status).toBe(201);
    // Joining a waitlist is a registration, and counts.
    expect((await register(full.id, 'late@example.com', { waitlist: true })).body.status).toBe('waitlist');
    expect((await register(open.id, 'late@example.com')).status).toBe(429);
  });
});

const FIELDS = [
  { label: 'T-shirt size', type: 'select', required: true, options: ['S', 'M', 'L'] },
  { label: 'Diet', type: 'checkbox', extra: { options: ['vegan', 'gluten-free'] } },
  { slug: 'phone', label: 'Phone', type: 'telephone' },
];

describe('attendee information fields', () => {
  it('are set by editors in the reference shape, and the ticket says it supports and requires them', async () => {
    const seat = await ticketOf({ attendee_information_fields: FIELDS });

    expect(seat.supports_attendee_information).toBe(true);
    expect(seat.requires_attendee_information).toBe(true);
    expect(seat.attendee_information_fields).toEqual([
      {
        slug: 't-shirt-size',
        type: 'select',
        required: true,
        label: 'T-shirt size',
        extra: { options: ['S', 'M', 'L'] },
      },
      {
        slug: 'diet',
        type: 'checkbox',
        required: false,
        label: 'Diet',
        extra: { options: ['vegan', 'gluten-free'] },
      },
      { slug: 'phone', type: 'telephone', required: false, label: 'Phone', extra: {} },
    ]);
    // The public sees the questions (a form needs them).
    expect((await api.get(t(`/tickets/${seat.id}`))).body.attendee_information_fields).toHaveLength(3);

    const optional = await api.put(
      t(`/tickets/${seat.id}`),
      { attendee_information_fields: [FIELDS[2]] },
      asEditor,
    );
    expect(optional.body).toMatchObject({
      supports_attendee_information: true,
      requires_attendee_information: false,
    });
    const none = await api.put(t(`/tickets/${seat.id}`), { attendee_information_fields: [] }, asEditor);
    expect(none.body).toMatchObject({
      supports_attendee_information: false,
      requires_attendee_information: false,
      attendee_information_fields: [],
    });
  });

  it('refuses fields that do not hold together, and a requires flag that contradicts them', async () => {
    const event = (
      await api.post(
        '/events',
        { title: 'E', status: 'publish', start_date: '2027-10-02 10:00:00', end_date: '2027-10-02 11:00:00' },
        asEditor,
      )
    ).body.id;
    const noOptions = await api.post(
      t('/tickets'),
      { post_id: event, title: 'X', attendee_information_fields: [{ label: 'Size', type: 'radio' }] },
      asEditor,
    );
    expect(noOptions.status).toBe(400);
    expect(noOptions.body.data.params.attendee_information_fields).toContain(
      'a radio field needs at least one option',
    );
    const badType = await api.post(
      t('/tickets'),
      { post_id: event, title: 'X', attendee_information_fields: [{ label: 'Shoe', type: 'number' }] },
      asEditor,
    );
    expect(badType.status).toBe(400);
    expect(Object.keys(badType.body.data.params)).toEqual(['attendee_information_fields']);
    const contradiction = await api.post(
      t('/tickets'),
      {
        post_id: event,
        title: 'X',
        requires_attendee_information: true,
        attendee_information_fields: [FIELDS[2]],
      },
      asEditor,
    );
    expect(contradiction.status).toBe(400);
    expect(Object.keys(contradiction.body.data.params)).toEqual(['requires_attendee_information']);
    expect((await api.get(t(`/tickets?post_id=${event}`))).body.total).toBe(0);
  });

  it('checks the answers of a registration, naming the field; nothing is written for a bad one', async () => {
    const seat = await ticketOf({ capacity: 10, attendee_information_fields: FIELDS });

    const missing = await register(seat.id, 'q1@example.com');
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('rest_invalid_param');
    expect(missing.body.data.params.attendee_meta).toContain('t-shirt-size');
    expect(missing.body.data.fields).toEqual({ 't-shirt-size': 'T-shirt size: an answer is required' });

    const wrong = await register(seat.id, 'q1@example.com', {
      attendee_meta: { 't-shirt-size': 'XXL', diet: ['meat'], shoe: '42' },
    });
    expect(wrong.status).toBe(400);
    expect(Object.keys(wrong.body.data.fields).sort()).toEqual(['diet', 'shoe', 't-shirt-size']);
    const both = await register(seat.id, 'q1@example.com', {
      attendee_meta: { 't-shirt-size': 'S' },
      information: { 't-shirt-size': 'S' },
    });
    expect(both.status).toBe(400);
    expect(Object.keys(both.body.data.params)).toEqual(['information']);
    expect(await sold(seat.id)).toBe(0);

    const ok = await register(seat.id, 'q1@example.com', {
      attendee_meta: { 't-shirt-size': 'M', diet: ['vegan'], phone: ' +47 22 33 44 55 ' },
    });
    expect(ok.status).toBe(201);
    // The registrant's own answer carries their answers, as it carries their address.
    expect(ok.body.information).toEqual({ 't-shirt-size': 'M', diet: ['vegan'], phone: '+47 22 33 44 55' });
    const alias = await register(seat.id, 'q2@example.com', { information: { 't-shirt-size': 'L' } });
    expect(alias.status).toBe(201);
    expect(alias.body.information).toEqual({ 't-shirt-size': 'L' });

    // Those who manage the attendees read the answers; the ticket's public answer has no attendees.
    const read = await api.get(t(`/attendees/${ok.body.id}`), asEditor);
    expect(read.body.information).toEqual({ 't-shirt-size': 'M', diet: ['vegan'], phone: '+47 22 33 44 55' });
    const listed = await api.get(t(`/attendees?ticket_id=${seat.id}`), asEditor);
    expect(listed.body.attendees.map((a: { information: object }) => a.information)).toContainEqual({
      't-shirt-size': 'L',
    });
    const publicTicket = await api.get(t(`/tickets/${seat.id}`));
    expect(publicTicket.body.attendees).toBeUndefined();
    expect(JSON.stringify(publicTicket.body)).not.toContain('+47');
    expect((await api.get(t(`/attendees/${ok.body.id}`), { token: tokens.subscriber })).status).toBe(403);
  });
});
