import { describe, expect, it } from 'vitest';
import type { Attendee } from '../../web/src/api-types';
import {
  checkInCounts,
  checkInOutcome,
  checkInTime,
  readCheckInCode,
  typedCheckInCode,
} from '../../web/src/check-in-code';

/** The door's check-in, without the DOM (web/src/check-in-code.ts). */

describe('readCheckInCode', () => {
  it('reads the confirmation’s QR address, whatever its host and namespace', () => {
    expect(
      readCheckInCode(
        'https://events.example.org/cal/tickets/v1/qr?ticket_id=41&event_id=3&security_code=a1b2c3d4e5',
      ),
    ).toEqual({ ticket_id: 41, event_id: 3, security_code: 'a1b2c3d4e5' });
    expect(
      readCheckInCode(' http://localhost:3000/cal/events/v1/qr?security_code=ff00&ticket_id=9 '),
    ).toEqual({
      ticket_id: 9,
      security_code: 'ff00',
    });
  });

  it('reads an attendee number and code typed together', () => {
    expect(readCheckInCode('41 a1b2c3d4e5')).toEqual({ ticket_id: 41, security_code: 'a1b2c3d4e5' });
    expect(readCheckInCode('#41:a1b2c3d4e5')).toEqual({ ticket_id: 41, security_code: 'a1b2c3d4e5' });
    expect(readCheckInCode('41 / a1b2')).toEqual({ ticket_id: 41, security_code: 'a1b2' });
  });

  it('is null for anything else', () => {
    for (const text of [
      '',
      'hello',
      '41',
      '0 abc',
      'https://example.org/qr?ticket_id=41',
      'https://example.org/qr?ticket_id=x&security_code=abc',
      'https://example.org/qr?ticket_id=41&security_code=a%20b',
      'https://[bad',
      `41 ${'a'.repeat(65)}`,
    ])
      expect(readCheckInCode(text), text).toBeNull();
  });
});

describe('typedCheckInCode', () => {
  it('takes the two fields as typed', () => {
    expect(typedCheckInCode(' 41 ', ' a1b2 ')).toEqual({ ticket_id: 41, security_code: 'a1b2' });
    expect(typedCheckInCode('#41', 'a1b2')).toEqual({ ticket_id: 41, security_code: 'a1b2' });
  });

  it('takes a scanned address (or number and code) from the first field when the second is empty', () => {
    expect(typedCheckInCode('https://x.org/qr?ticket_id=5&security_code=ab&event_id=2', '')).toEqual({
      ticket_id: 5,
      security_code: 'ab',
      event_id: 2,
    });
    expect(typedCheckInCode('5 ab', '')).toEqual({ ticket_id: 5, security_code: 'ab' });
  });

  it('is null when either is missing or malformed', () => {
    expect(typedCheckInCode('', 'ab')).toBeNull();
    expect(typedCheckInCode('41', '')).toBeNull();
    expect(typedCheckInCode('4x1', 'ab')).toBeNull();
    expect(typedCheckInCode('41', 'a b')).toBeNull();
  });
});

const ann: Attendee = {
  id: 41,
  post_id: 3,
  ticket_id: 7,
  rest_url: '',
  provider: 'rsvp',
  title: 'Ann Lee',
  status: 'going',
  checked_in: true,
  checkin_details: { date: '2031-03-12 19:05:00', source: 'api' },
};
const code = { ticket_id: 41, security_code: 'a1b2' };
const utc = { locale: 'en-GB', timeZone: 'UTC' };

describe('checkInOutcome', () => {
  it('welcomes a checked-in attendee by name', () => {
    expect(checkInOutcome(code, { attendee: ann })).toEqual({
      kind: 'checked-in',
      title: 'Checked in',
      detail: 'Ann Lee (attendee 41): welcome.',
    });
  });

  it('says when someone was already checked in', () => {
    const o = checkInOutcome(
      code,
      { status: 403, code: 'attendee_already_checked_in', message: 'Already checked in!', attendee: ann },
      utc,
    );
    expect(o).toEqual({
      kind: 'already',
      title: 'Already checked in',
      detail: 'Ann Lee (attendee 41) was checked in at 19:05.',
    });
    expect(
      checkInOutcome(code, { status: 403, code: 'attendee_already_checked_in', message: '' }).detail,
    ).toBe('Attendee 41 was checked in.');
  });

  it('tells a wrong code, an attendee not going, an unknown number and a refusal apart', () => {
    const refused = (status: number, c: string, attendee?: Attendee) =>
      checkInOutcome(code, { status, code: c, message: 'm', attendee });
    expect(refused(403, 'security_code_not_valid')).toMatchObject({
      kind: 'invalid',
      title: 'Code not valid',
    });
    expect(refused(403, 'attendee_not_authorized', { ...ann, status: 'cancelled' })).toEqual({
      kind: 'not-going',
      title: 'Not going',
      detail: 'Ann Lee (attendee 41) holds no seat: their registration is cancelled.',
    });
    expect(refused(404, 'rest-attendee-not-found')).toEqual({
      kind: 'not-found',
      title: 'Not found',
      detail: 'No attendee has the number 41.',
    });
    expect(refused(403, 'rest_forbidden').kind).toBe('refused');
    expect(refused(401, 'rest_not_logged_in').kind).toBe('refused');
    expect(refused(500, 'internal')).toEqual({ kind: 'error', title: 'Could not check in', detail: 'm' });
  });
});

describe('checkInTime', () => {
  it('shows the UTC check-in time in the viewer’s zone, nothing when there is none', () => {
    expect(checkInTime({ date: '2031-03-12 19:05:00' }, { locale: 'en-GB', timeZone: 'Europe/Berlin' })).toBe(
      '20:05',
    );
    expect(checkInTime(false, utc)).toBe('');
    expect(checkInTime({ date: 'never' }, utc)).toBe('');
  });
});

describe('checkInCounts', () => {
  it('adds up the going and checked-in of every ticket', () => {
    expect(
      checkInCounts([
        { capacity_details: { sold: 20 }, checkin: { checked_in: 3 } },
        { capacity_details: { sold: 5 }, checkin: { checked_in: 5 } },
        { capacity_details: {} },
      ]),
    ).toBe('8 of 25 going checked in.');
  });
});
