import type { Attendee } from './api-types';

/**
 * The check-in view's rules (check-in.ts draws it), with no DOM: reading what a camera scanned or a
 * person typed, and telling the door what POST /qr answered. The QR code of a confirmation is the
 * check-in address `<api>/qr?ticket_id=<attendee>&event_id=<event>&security_code=<code>`
 * (shared/services/tickets/confirmation.ts); its `ticket_id` is the attendee's ID, as in the reference.
 */

export interface CheckInCode {
  /** The attendee's ID (the reference's `ticket_id`: the ticket a person holds). */
  ticket_id: number;
  security_code: string;
  event_id?: number;
}

const ID = /^[1-9]\d{0,15}$/;
const CODE = /^[\w-]{1,64}$/;

/**
 * The code in what was scanned or typed: the confirmation's QR address (any host: the scanner reads
 * the address only for its parameters), or the attendee ID and the security code typed together
 * ("1234 a1b2c3d4e5", "1234:a1b2c3d4e5", "1234/a1b2c3d4e5"). Null when it is neither.
 */
export function readCheckInCode(text: string): CheckInCode | null {
  const value = text.trim();
  if (/^https?:\/\//i.test(value)) {
    let q: URLSearchParams;
    try {
      q = new URL(value).searchParams;
    } catch {
      return null;
    }
    const id = q.get('ticket_id') ?? '';
    const code = (q.get('security_code') ?? '').trim();
    const event = q.get('event_id') ?? '';
    if (!ID.test(id) || !CODE.test(code)) return null;
    return {
      ticket_id: Number(id),
      security_code: code,
      ...(ID.test(event) ? { event_id: Number(event) } : {}),
    };
  }
  const m = /^#?(\d+)\s*[\s:/]\s*([\w-]+)$/.exec(value);
  if (!m || !ID.test(m[1]!) || !CODE.test(m[2]!)) return null;
  return { ticket_id: Number(m[1]), security_code: m[2]! };
}

/** The two fields of the form, as typed: the ID field may hold a whole scanned address (a keyboard-like scanner). */
export function typedCheckInCode(idField: string, codeField: string): CheckInCode | null {
  const id = idField.trim().replace(/^#/, '');
  const code = codeField.trim();
  if (ID.test(id) && CODE.test(code)) return { ticket_id: Number(id), security_code: code };
  // A scanned address (or "1234 a1b2c3d4e5") typed into the first field, the second left empty.
  return code ? null : readCheckInCode(idField);
}

export type CheckInKind =
  'checked-in' | 'already' | 'not-found' | 'invalid' | 'not-going' | 'refused' | 'error';

export interface CheckInOutcome {
  kind: CheckInKind;
  /** The result's headline, large at the door. */
  title: string;
  detail: string;
}

/** A refused check-in as the view reads it (the client's error, its envelope's attendee when given). */
export interface CheckInRefusal {
  status: number;
  code: string;
  message: string;
  attendee?: Attendee;
}

/** When an attendee was checked in (the answer's UTC `Y-m-d H:i:s`), as a time of the viewer's day. */
export function checkInTime(
  details: Attendee['checkin_details'],
  o: { locale?: string; timeZone?: string } = {},
): string {
  const date = details && typeof details === 'object' ? (details as { date?: unknown }).date : undefined;
  if (typeof date !== 'string') return '';
  const at = new Date(`${date.replace(' ', 'T')}${/Z|[+-]\d{2}:?\d{2}$/.test(date) ? '' : 'Z'}`);
  if (Number.isNaN(at.getTime())) return '';
  return at.toLocaleTimeString(o.locale, { hour: '2-digit', minute: '2-digit', timeZone: o.timeZone });
}

const who = (a: Attendee | undefined, id: number) => (a ? `${a.title} (attendee ${a.id})` : `Attendee ${id}`);

/** What the door is told of POST /qr's answer: its attendee (201), or its refusal. */
export function checkInOutcome(
  code: CheckInCode,
  answer: { attendee: Attendee } | CheckInRefusal,
  o: { locale?: string; timeZone?: string } = {},
): CheckInOutcome {
  if ('attendee' in answer && !('status' in answer))
    return {
      kind: 'checked-in',
      title: 'Checked in',
      detail: `${who(answer.attendee, code.ticket_id)}: welcome.`,
    };
  const r = answer as CheckInRefusal;
  switch (r.code) {
    case 'attendee_already_checked_in': {
      const at = checkInTime(r.attendee?.checkin_details, o);
      return {
        kind: 'already',
        title: 'Already checked in',
        detail: `${who(r.attendee, code.ticket_id)} was checked in${at ? ` at ${at}` : ''}.`,
      };
    }
    case 'security_code_not_valid':
      return {
        kind: 'invalid',
        title: 'Code not valid',
        detail: `The security code does not match attendee ${code.ticket_id} of this event.`,
      };
    case 'attendee_not_authorized':
      return {
        kind: 'not-going',
        title: 'Not going',
        detail: `${who(r.attendee, code.ticket_id)} holds no seat: their registration is ${r.attendee?.status ?? 'not going'}.`,
      };
  }
  if (r.status === 404)
    return { kind: 'not-found', title: 'Not found', detail: `No attendee has the number ${code.ticket_id}.` };
  if (r.status === 401 || r.status === 403)
    return {
      kind: 'refused',
      title: 'Not allowed',
      detail: 'Sign in as an editor or as the event’s author to check its attendees in.',
    };
  return { kind: 'error', title: 'Could not check in', detail: r.message };
}

/** How far the door is: the going attendees of the event's tickets and how many are in. */
export function checkInCounts(
  tickets: Array<{ capacity_details: { sold?: number }; checkin?: { checked_in?: number } }>,
): string {
  const going = tickets.reduce((n, t) => n + (t.capacity_details.sold ?? 0), 0);
  const inside = tickets.reduce((n, t) => n + (t.checkin?.checked_in ?? 0), 0);
  return `${inside} of ${going} going checked in.`;
}
