import { timingSafeEqual } from 'node:crypto';
import { nowStamps } from '../../domain/clock';
import { DomainError, forbidden } from '../../domain/errors';
import { attendeeNotFound, managesAttendees } from '../../domain/tickets';
import { getPostHead } from '../../repositories/posts';
import * as repo from '../../repositories/tickets';
import type { Caller } from '../common';
import { attendeeView } from './ticket-view';

/**
 * POST /qr (docs/tickets.md, "Check-in at the door"): the reference's QR check-in. Its `ticket_id` is
 * the attendee's ID, as in the reference (the ticket a person holds); the security code is the one in
 * their confirmation. Signing in (editors, the event's author) stands in for the reference's api_key.
 * Refusals are the reference's 403s: a wrong code, an attendee not going, one checked in already.
 */

const sameCode = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

const refused = (code: string, message: string, attendee?: unknown) =>
  new DomainError('forbidden', code, message, attendee ? { attendee } : undefined);

export async function checkInByCode(
  body: { ticket_id: number; security_code: string; event_id?: number },
  c: Caller,
) {
  const attendee = await repo.getAttendee(body.ticket_id);
  const event = attendee && (await getPostHead(attendee.post_id));
  if (!attendee || !event) throw attendeeNotFound(body.ticket_id);
  if (!managesAttendees(c.user, event.author)) throw forbidden();
  const host = new URL(c.root).host;
  const view = (a = attendee) => attendeeView(a, { root: c.root, host, withEmail: true });
  if (
    !sameCode(body.security_code.trim(), attendee.security_code) ||
    (body.event_id ?? event.id) !== event.id
  )
    throw refused('security_code_not_valid', 'Security code is not valid!');
  if (attendee.status !== 'going')
    throw refused(
      'attendee_not_authorized',
      `This attendee is not authorized to be checked in: their registration is ${attendee.status}.`,
      view(),
    );
  if (attendee.checked_in) throw refused('attendee_already_checked_in', 'Already checked in!', view());
  // The same conditional write as PUT /attendees/{id}: of two scans at two doors, one checks in.
  if (!(await repo.setCheckIn(attendee, true, nowStamps(), event.author))) {
    const now = await repo.getAttendee(attendee.id);
    throw refused('attendee_already_checked_in', 'Already checked in!', view(now ?? attendee));
  }
  return { msg: 'Checked In!', attendee: view((await repo.getAttendee(attendee.id)) ?? attendee) };
}
