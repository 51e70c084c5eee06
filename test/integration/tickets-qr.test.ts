import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sendDueMail } from '../../shared/services/tickets';
import { readOutbox } from '../support/outbox';
import { useStack } from '../support/use-stack';

/** POST /qr (docs/tickets.md, "Check-in at the door"): check-in by the code of the confirmation. */

const outbox = await mkdtemp(join(tmpdir(), 'outbox-'));
process.env.CAL_OUTBOX_DIR = outbox;
const { api, tokens } = await useStack({
  tokens: { editor: 'editor', author: ['author', 'user-author'], other: ['author', 'user-other'] },
});
const t = (path: string) => `${api.origin}/cal/tickets/v1${path}`;

async function registered(capacity = 5, waitlist = false) {
  const event = await api.post(
    '/events',
    { title: 'Gala', status: 'publish', start_date: '2027-10-01 19:00:00', end_date: '2027-10-01 23:00:00' },
    { token: tokens.author },
  );
  const ticket = await api.post(
    t('/tickets'),
    { post_id: event.body.id, title: 'Entry', capacity },
    { token: tokens.editor },
  );
  const res = await api.post(t('/attendees'), {
    ticket_id: ticket.body.id,
    full_name: 'Katherine',
    email: 'kj@example.com',
    ...(waitlist ? { waitlist: true } : {}),
  });
  expect(res.status).toBe(201);
  return { eventId: event.body.id as number, ticketId: ticket.body.id as number, attendee: res.body };
}

/** The security code, as the attendee has it: from their confirmation e-mail. */
async function codeOf(attendeeId: number): Promise<string> {
  await sendDueMail();
  const mail = (await readOutbox(outbox)).find((m) => m.name === `attendee-${attendeeId}-confirmation.eml`)!;
  return /Security code: ([0-9a-f]+)/.exec(mail.parts[0]!.body)![1]!;
}

describe('POST /qr', () => {
  it('checks the attendee in once with the code of their confirmation, as the reference answers', async () => {
    const { ticketId, attendee, eventId } = await registered();
    const code = await codeOf(attendee.id);
    const res = await api.post(
      t('/qr'),
      { ticket_id: attendee.id, security_code: code, event_id: eventId },
      { token: tokens.editor },
    );
    expect(res.status).toBe(201);
    expect(res.body.msg).toBe('Checked In!');
    expect(res.body.attendee).toMatchObject({ id: attendee.id, checked_in: true, email: 'kj@example.com' });
    expect(res.body.attendee.checkin_details).toMatchObject({ source: 'api' });
    const ticket = await api.get(t(`/tickets/${ticketId}`), { token: tokens.editor });
    expect(ticket.body.checkin.checked_in).toBe(1);

    // The second scan: the reference's 403, with the attendee.
    const again = await api.post(
      t('/qr'),
      { ticket_id: attendee.id, security_code: code },
      { token: tokens.editor },
    );
    expect(again.status).toBe(403);
    expect(again.body.code).toBe('attendee_already_checked_in');
    expect(again.body.data.attendee.id).toBe(attendee.id);
    expect((await api.get(t(`/tickets/${ticketId}`), { token: tokens.editor })).body.checkin.checked_in).toBe(
      1,
    );
  });

  it('refuses a wrong code or event, and whoever does not manage the event’s attendees', async () => {
    const { attendee, eventId } = await registered();
    const code = await codeOf(attendee.id);
    const wrong = await api.post(
      t('/qr'),
      { ticket_id: attendee.id, security_code: '0000000000' },
      { token: tokens.editor },
    );
    expect(wrong.status).toBe(403);
    expect(wrong.body.code).toBe('security_code_not_valid');
    expect(wrong.body.data.attendee).toBeUndefined();
    const otherEvent = await api.post(
      t('/qr'),
      { ticket_id: attendee.id, security_code: code, event_id: eventId + 1000 },
      { token: tokens.editor },
    );
    expect(otherEvent.body.code).toBe('security_code_not_valid');
    expect((await api.post(t('/qr'), { ticket_id: attendee.id, security_code: code })).status).toBe(401);
    const stranger = await api.post(
      t('/qr'),
      { ticket_id: attendee.id, security_code: code },
      { token: tokens.other },
    );
    expect(stranger.status).toBe(403);
    expect(stranger.body.code).toBe('rest_forbidden');
    expect(
      (await api.post(t('/qr'), { ticket_id: 999999, security_code: code }, { token: tokens.editor })).status,
    ).toBe(404);
    // The event's author checks in their own event's attendees.
    const own = await api.post(
      t('/qr'),
      { ticket_id: attendee.id, security_code: code },
      { token: tokens.author },
    );
    expect(own.status).toBe(201);
  });

  it('gives the registrant the code of their confirmation in the 201 (going only), and no other answer', async () => {
    const { attendee, ticketId } = await registered(1);
    expect(attendee.security_code).toBe(await codeOf(attendee.id));
    const read = await api.get(t(`/attendees/${attendee.id}`), { token: tokens.editor });
    expect(read.status).toBe(200);
    expect(read.body.security_code).toBeUndefined();
    const list = await api.get(t(`/attendees?ticket_id=${ticketId}`), { token: tokens.editor });
    expect(list.body.attendees[0].security_code).toBeUndefined();
    // The ticket is full now: the next one waits, with no seat and no code to show.
    const waiting = await api.post(t('/attendees'), {
      ticket_id: ticketId,
      full_name: 'Dorothy',
      email: 'dv@example.com',
      waitlist: true,
    });
    expect(waiting.body.status).toBe('waitlist');
    expect(waiting.body.security_code).toBeUndefined();
  });

  it('does not check in an attendee who is no longer going', async () => {
    const { attendee } = await registered();
    const code = await codeOf(attendee.id);
    expect((await api.del(t(`/attendees/${attendee.id}?token=${attendee.token}`))).status).toBe(200);
    const res = await api.post(
      t('/qr'),
      { ticket_id: attendee.id, security_code: code },
      { token: tokens.editor },
    );
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('attendee_not_authorized');
    expect(res.body.data.attendee).toMatchObject({ id: attendee.id, status: 'cancelled', checked_in: false });
  });
});
