import { describe, expect, it } from 'vitest';
import type { Ticket } from '../../web/src/api-types';
import {
  checkRegistration,
  confirmation,
  type Refusal,
  refusalText,
  registrable,
  registrationBody,
  retryText,
  seatsLeft,
  ticketStanding,
  wallText,
} from '../../web/src/registration';

/** The detail dialog's tickets and registration form, without the DOM (web/src/registration.ts). */

const ticket = (o: Partial<Ticket> & { sold?: number } = {}): Ticket => {
  const capacity = o.capacity ?? 10;
  const sold = o.sold ?? 0;
  return {
    id: 7,
    post_id: 3,
    rest_url: '/cal/tickets/v1/tickets/7',
    provider: 'rsvp',
    title: 'Entry',
    capacity,
    capacity_details: { available: capacity < 0 ? -1 : capacity - sold, max: capacity, sold },
    is_available: capacity < 0 || sold < capacity,
    ...o,
  };
};

const refusal = (o: Partial<Refusal>): Refusal => ({
  status: 400,
  code: 'rest_invalid_param',
  message: 'Invalid parameter(s): email',
  fields: {},
  retryAfter: null,
  ...o,
});

describe('ticketStanding', () => {
  it('counts the seats left, one seat in the singular, and no limit for an unlimited ticket', () => {
    expect(ticketStanding(ticket({ capacity: 50, sold: 12 }))).toMatchObject({
      state: 'open',
      seats: '38 seats left',
    });
    expect(ticketStanding(ticket({ capacity: 5, sold: 4 })).seats).toBe('1 seat left');
    expect(ticketStanding(ticket({ capacity: -1 }))).toMatchObject({ state: 'open', seats: 'No seat limit' });
  });

  it('offers the waitlist when no seat is left', () => {
    const s = ticketStanding(ticket({ capacity: 2, sold: 2 }));
    expect(s).toMatchObject({ state: 'sold-out', seats: 'Sold out' });
    expect(s.note).toMatch(/waitlist/);
  });

  it('is closed outside its sales window, saying when it is on offer', () => {
    const s = ticketStanding(ticket({ is_available: false, available_from: '2031-03-01 09:00:00' }));
    expect(s).toMatchObject({ state: 'closed', seats: 'Not on offer now' });
    expect(s.note).toBe('Registration is open from 2031-03-01 09:00.');
    expect(ticketStanding(ticket({ is_available: false, available_until: '2031-03-10 00:00:00' })).note).toBe(
      'Registration is open until 2031-03-10.',
    );
  });

  it('works the seats out from the capacity when the answer leaves `available` out', () => {
    expect(seatsLeft({ ...ticket(), capacity: 8, capacity_details: { sold: 3 } })).toBe(5);
    expect(seatsLeft({ ...ticket(), capacity: 8, capacity_details: { available: -2 } })).toBe(0);
  });

  it('lists the tickets one can register for: open or full (the waitlist), not closed', () => {
    const open = ticket({ id: 1 });
    const full = ticket({ id: 2, capacity: 1, sold: 1 });
    const closed = ticket({ id: 3, is_available: false });
    expect(registrable([open, full, closed]).map((t) => t.id)).toEqual([1, 2]);
  });
});

describe('wallText', () => {
  it('shows a wall time to the minute, and a day alone at midnight', () => {
    expect(wallText('2031-03-01 09:30:00')).toBe('2031-03-01 09:30');
    expect(wallText('2031-03-01 09:30')).toBe('2031-03-01 09:30');
    expect(wallText('2031-03-01 00:00:00')).toBe('2031-03-01');
    expect(wallText('2031-03-01')).toBe('2031-03-01');
    expect(wallText('soon')).toBe('soon');
  });
});

describe('checkRegistration', () => {
  it('finds every problem at once', () => {
    expect(checkRegistration({ full_name: ' ', email: '' })).toEqual({
      full_name: 'Enter your name.',
      email: 'Enter your e-mail address: the confirmation goes there.',
    });
    expect(checkRegistration({ full_name: 'x'.repeat(201), email: 'ann@' })).toEqual({
      full_name: 'Enter a name of at most 200 characters.',
      email: 'Enter an e-mail address such as name@example.org.',
    });
  });

  it('passes a name and an address (trimmed)', () => {
    expect(checkRegistration({ full_name: ' Ann Lee ', email: ' ann@example.org ' })).toEqual({});
  });
});

describe('registrationBody', () => {
  const fields = { full_name: ' Ann ', email: ' ann@example.org ', going: true };

  it('sends the ticket, the trimmed name and address, and the RSVP answer', () => {
    expect(registrationBody({ ...fields, ticket: ticket() })).toEqual({
      ticket_id: 7,
      full_name: 'Ann',
      email: 'ann@example.org',
      attendee_status: 'going',
      waitlist: false,
    });
    expect(registrationBody({ ...fields, going: false, ticket: ticket() }).attendee_status).toBe('not going');
  });

  it('asks for the waitlist when the ticket is full, never for a `not going` answer', () => {
    const full = ticket({ capacity: 1, sold: 1 });
    expect(registrationBody({ ...fields, ticket: full }).waitlist).toBe(true);
    expect(registrationBody({ ...fields, going: false, ticket: full })).toMatchObject({
      attendee_status: 'not going',
      waitlist: false,
    });
  });

  it('registers a free ticket as going whatever the RSVP question said', () => {
    expect(
      registrationBody({ ...fields, going: false, ticket: ticket({ provider: 'tickets' }) }).attendee_status,
    ).toBe('going');
  });
});

describe('refusalText', () => {
  it('puts the API’s messages for the name and address under those fields', () => {
    const t = refusalText(refusal({ fields: { email: 'email must match format "email"' } }));
    expect(t).toEqual({
      summary: 'Please check the fields marked below.',
      fields: { email: 'email must match format "email"' },
      soldOut: false,
    });
  });

  it('turns to the waitlist when the last seat went meanwhile', () => {
    const t = refusalText(refusal({ status: 409, code: 'sold_out', message: 'Ticket 7 has no seat left' }));
    expect(t.soldOut).toBe(true);
    expect(t.summary).toMatch(/join the waitlist/);
  });

  it('says when to try again after too many registrations', () => {
    const t = refusalText(refusal({ status: 429, code: 'rest_too_many_registrations', retryAfter: '1800' }));
    expect(t.summary).toBe(
      'Too many registrations from this address or network: please try again in 30 minutes.',
    );
    expect(retryText('30')).toBe('in a minute');
    expect(retryText('7200')).toBe('in 2 hours');
    expect(retryText(null)).toBe('later');
    expect(retryText('Wed, 21 Oct 2026 07:28:00 GMT')).toBe('later');
  });

  it('tells other refusals by the API’s message, with what it names elsewhere', () => {
    expect(refusalText(refusal({ status: 404, code: 'rest-ticket-not-found' })).summary).toBe(
      'This ticket is no longer offered.',
    );
    expect(
      refusalText(refusal({ status: 409, code: 'ticket_not_available', message: 'Ticket 7 cannot be had.' }))
        .summary,
    ).toBe('Ticket 7 cannot be had.');
    expect(
      refusalText(
        refusal({ message: 'Invalid parameter(s).', fields: { ticket_id: 'ticket_id is required.' } }),
      ),
    ).toEqual({ summary: 'Invalid parameter(s). ticket_id is required.', fields: {}, soldOut: false });
    expect(refusalText(refusal({ status: 0, code: 'network', message: 'Failed to fetch.' })).summary).toBe(
      'Could not reach the server: Failed to fetch. Nothing was sent.',
    );
  });
});

describe('confirmation', () => {
  const attendee = {
    id: 41,
    post_id: 3,
    ticket_id: 7,
    rest_url: '',
    provider: 'rsvp',
    title: 'Ann',
    checked_in: false,
  };

  it('gives those going their number and security code, and where the e-mail went', () => {
    expect(
      confirmation({ ...attendee, status: 'going', security_code: 'a1b2c3', email: 'ann@example.org' }),
    ).toEqual({
      heading: 'You are registered',
      lines: [
        'A seat is yours.',
        'Attendee number: 41',
        'Security code: a1b2c3 (show it at the door with your attendee number)',
        'A confirmation is on its way to ann@example.org.',
      ],
    });
  });

  it('tells the waitlist and a `not going` answer apart, with no code to show', () => {
    expect(confirmation({ ...attendee, status: 'waitlist' }).heading).toBe('You are on the waitlist');
    const no = confirmation({ ...attendee, status: 'not going' });
    expect(no.heading).toBe('Your answer is recorded');
    expect(no.lines.join(' ')).not.toMatch(/Security code/);
  });
});
