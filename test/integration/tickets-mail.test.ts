import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { ddb, tableName } from '../../shared/db/client';
import { keys } from '../../shared/db/keys';
import { sendDueMail } from '../../shared/services/tickets';
import { type MailTransport, sesTransport } from '../../shared/services/tickets';
import { readOutbox } from '../support/outbox';
import { useStack } from '../support/use-stack';

/** Attendees' e-mails (docs/tickets.md, "Confirmation e-mail"): the outbox, the local transport, retries. */

const outbox = await mkdtemp(join(tmpdir(), 'outbox-'));
process.env.CAL_OUTBOX_DIR = outbox;
const { api, tokens } = await useStack({ tokens: { editor: 'editor' } });
const t = (path: string) => `${api.origin}/cal/tickets/v1${path}`;

async function ticketOfNewEvent(capacity: number, title = 'Concert'): Promise<number> {
  const event = await api.post(
    '/events',
    { title, status: 'publish', start_date: '2027-09-01 19:00:00', end_date: '2027-09-01 21:00:00' },
    { token: tokens.editor },
  );
  const ticket = await api.post(
    t('/tickets'),
    { post_id: event.body.id, title: 'Entry', capacity },
    { token: tokens.editor },
  );
  expect(ticket.status).toBe(201);
  return ticket.body.id;
}

const register = (ticket_id: number, name: string, extra: Record<string, unknown> = {}) =>
  api.post(t('/attendees'), {
    ticket_id,
    full_name: name,
    email: `${name.toLowerCase()}@example.com`,
    ...extra,
  });

const mailOf = async (attendeeId: number, kind = 'confirmation') =>
  (await readOutbox(outbox)).find((m) => m.name === `attendee-${attendeeId}-${kind}.eml`);

describe('the confirmation e-mail', () => {
  it('tells the attendee of the event and ticket, with the security code and the event as .ics', async () => {
    const ticketId = await ticketOfNewEvent(5, 'Jazz & Soul');
    const res = await register(ticketId, 'Ada');
    expect(res.status).toBe(201);
    expect(await mailOf(res.body.id)).toBeUndefined();
    const run = await sendDueMail();
    expect(run.sent).toBeGreaterThanOrEqual(1);
    const mail = (await mailOf(res.body.id))!;
    expect(mail.headers.to).toBe('"Ada" <ada@example.com>');
    expect(mail.headers.subject).toBe('Your ticket: Jazz & Soul');
    expect(mail.headers['message-id']).toBe(`<attendee-${res.body.id}-confirmation@calendar.test>`);
    const text = mail.parts.find((p) => p.contentType === 'text/plain')!.body;
    expect(text).toContain('Event: Jazz & Soul');
    expect(text).toContain(`Ticket: Entry (ticket ${ticketId})`);
    expect(text).toMatch(/Security code: [0-9a-f]{10}/);
    const ics = mail.parts.find((p) => p.filename === 'event.ics')!;
    expect(ics.contentType).toBe('text/calendar');
    expect(ics.body).toContain('BEGIN:VEVENT');
    expect(ics.body).toContain(`UID:event-${res.body.post_id}@calendar.test`);
    expect(ics.body).toContain('SUMMARY:Jazz & Soul');
    // The QR code a door's scanner reads: a PNG of the check-in address.
    const qr = mail.parts.find((p) => p.filename === 'qr.png')!;
    expect(qr.contentType).toBe('image/png');
    expect(qr.body.slice(1, 4)).toBe('PNG');

    // Sent once: the next run finds nothing due for it.
    const before = mail.raw;
    expect((await sendDueMail()).sent).toBe(0);
    expect((await mailOf(res.body.id))!.raw).toBe(before);
  });

  it('is listed at /dev/outbox on the local stack', async () => {
    const ticketId = await ticketOfNewEvent(5);
    const res = await register(ticketId, 'Grace');
    await sendDueMail();
    const list = (await (await fetch(`${api.origin}/dev/outbox`)).json()) as { mails: unknown[] };
    const name = `attendee-${res.body.id}-confirmation.eml`;
    expect(list.mails).toContainEqual(expect.objectContaining({ name, to: '"Grace" <grace@example.com>' }));
    const one = await fetch(`${api.origin}/dev/outbox/${name}`);
    expect(one.headers.get('content-type')).toBe('message/rfc822');
    expect(await one.text()).toContain('Subject: Your ticket: Concert');
  });

  it('tells a waitlisted attendee so, and tells them again when a seat becomes theirs', async () => {
    const ticketId = await ticketOfNewEvent(1);
    const first = await register(ticketId, 'Alan');
    const waiting = await register(ticketId, 'Edsger', { waitlist: true });
    expect(waiting.body.status).toBe('waitlist');
    await sendDueMail();
    const waitText = (await mailOf(waiting.body.id))!.parts[0]!.body;
    expect(waitText).toContain('you are on the waitlist');
    expect(waitText).not.toContain('Security code');
    const cancel = await api.del(t(`/attendees/${first.body.id}?token=${first.body.token}`));
    expect(cancel.status).toBe(200);
    await sendDueMail();
    const promoted = (await mailOf(waiting.body.id, 'promoted'))!;
    expect(promoted.headers.subject).toBe('A seat is yours: Concert');
    expect(promoted.parts[0]!.body).toMatch(/Security code: [0-9a-f]{10}/);
  });

  it('retries a failed send, never losing or duplicating the registration or the mail', async () => {
    const ticketId = await ticketOfNewEvent(1);
    const res = await register(ticketId, 'Barbara');
    expect(res.status).toBe(201);
    let calls = 0;
    const failing: MailTransport = {
      send: () => {
        calls++;
        return Promise.reject(new Error('Throttling: maximum sending rate exceeded'));
      },
    };
    const now = Date.now();
    const failed = await sendDueMail({ transport: failing, now });
    expect(failed.retrying).toBeGreaterThanOrEqual(1);
    expect(calls).toBe(failed.retrying);
    expect(await mailOf(res.body.id)).toBeUndefined();
    // Not due again before its retry time, even to a working transport.
    await sendDueMail({ now: now + 30_000 });
    expect(await mailOf(res.body.id)).toBeUndefined();
    // The registration stands: the seat is taken, once.
    const ticket = await api.get(t(`/tickets/${ticketId}`), { token: tokens.editor });
    expect(ticket.body.capacity_details.sold).toBe(1);
    expect(ticket.body.attendees.map((a: { id: number }) => a.id)).toEqual([res.body.id]);
    // Its retry time come, it is sent once.
    const retried = await sendDueMail({ now: now + 61_000 });
    expect(retried.sent).toBeGreaterThanOrEqual(1);
    expect(await mailOf(res.body.id)).toBeDefined();
    expect((await sendDueMail({ now: now + 24 * 3600_000 })).sent).toBe(0);
    expect((await readOutbox(outbox)).filter((m) => m.name.includes(`-${res.body.id}-`))).toHaveLength(1);
  });

  it('keeps a mail SES refused for its retry (SES when deployed)', async () => {
    const ses = mockClient(SESv2Client);
    ses
      .on(SendEmailCommand)
      .rejects(Object.assign(new Error('Email address is not verified.'), { name: 'MessageRejected' }));
    try {
      const ticketId = await ticketOfNewEvent(2);
      const res = await register(ticketId, 'Carla');
      const now = Date.now();
      const run = await sendDueMail({ transport: sesTransport(), now });
      expect(run.retrying).toBeGreaterThanOrEqual(1);
      const raw = ses
        .commandCalls(SendEmailCommand)
        .map((c) => Buffer.from(c.args[0].input.Content!.Raw!.Data!).toString());
      expect(raw.some((m) => m.includes(`Message-ID: <attendee-${res.body.id}-confirmation@`))).toBe(true);
      // The registration stands, and the mail is sent once SES takes it (here: the outbox).
      expect(
        (await api.get(t(`/tickets/${ticketId}`), { token: tokens.editor })).body.capacity_details.sold,
      ).toBe(1);
      expect((await sendDueMail({ now: now + 61_000 })).sent).toBeGreaterThanOrEqual(1);
      expect(await mailOf(res.body.id)).toBeDefined();
    } finally {
      ses.restore();
    }
  });

  it('gives up after the retry schedule, leaving the registration as it was', async () => {
    const ticketId = await ticketOfNewEvent(3);
    const res = await register(ticketId, 'Frances');
    const failing: MailTransport = { send: () => Promise.reject(new Error('MessageRejected')) };
    let at = Date.now();
    const outcomes = [];
    for (let i = 0; i < 6; i++) {
      outcomes.push(await sendDueMail({ transport: failing, now: at }));
      at += 7 * 3600_000;
    }
    expect(outcomes.at(-1)!.failed).toBeGreaterThanOrEqual(1);
    expect((await sendDueMail({ now: at + 7 * 3600_000 })).due).toBe(0);
    expect(await mailOf(res.body.id)).toBeUndefined();
    const attendee = await api.get(t(`/attendees/${res.body.id}`), { token: tokens.editor });
    expect(attendee.body.status).toBe('going');
    // Failed for good: the secret the mail item held for its link is gone with it.
    expect(await mailItem(res.body.id)).not.toHaveProperty('link_token');
  });

  it("carries the attendee's own link, whose token the mail item keeps only until the mail is sent", async () => {
    const ticketId = await ticketOfNewEvent(1);
    const res = await register(ticketId, 'Hedy');
    const waiting = await register(ticketId, 'Joan', { waitlist: true });
    // The table keeps the token's hash on the attendee; the mail item holds the token for the link.
    expect((await mailItem(res.body.id))!.link_token).toBe(res.body.token);
    expect(JSON.stringify(await attendeeItem(res.body.id))).not.toContain(res.body.token);
    await sendDueMail();
    const text = (await mailOf(res.body.id))!.parts[0]!.body;
    expect(text).toContain(`http://calendar.test/attendee/${res.body.id}/?token=${res.body.token}`);
    expect(text).toContain('Keep this link to yourself');
    // Sent: the token is dropped from the item.
    const sent = (await mailItem(res.body.id))!;
    expect(sent.status).toBe('sent');
    expect(sent).not.toHaveProperty('link_token');
    // A waitlisted registration's confirmation has its link too; a promotion's mail points back to it.
    expect((await mailOf(waiting.body.id))!.parts[0]!.body).toContain(
      `/attendee/${waiting.body.id}/?token=${waiting.body.token}`,
    );
    await api.del(t(`/attendees/${res.body.id}?token=${res.body.token}`));
    await sendDueMail();
    const promoted = (await mailOf(waiting.body.id, 'promoted'))!.parts[0]!.body;
    expect(promoted).not.toContain('token=');
    expect(promoted).toContain('use the link in the first e-mail');
  });
});

const mailItem = async (attendeeId: number, kind = 'confirmation') =>
  (await ddb.send(new GetCommand({ TableName: tableName(), Key: keys.mail(attendeeId, kind) }))).Item;
const attendeeItem = async (attendeeId: number) =>
  (await ddb.send(new GetCommand({ TableName: tableName(), Key: keys.attendee(attendeeId) }))).Item;
