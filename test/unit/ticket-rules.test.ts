import { describe, expect, it } from 'vitest';
import { attendeeRows, questionColumns } from '../../shared/domain/attendee-csv';
import {
  type AttendeeField,
  checkAnswers,
  normalizeFields,
  slugOfLabel,
} from '../../shared/domain/attendee-fields';
import { DomainError } from '../../shared/domain/errors';
import {
  duration,
  emailBucket,
  ipBucket,
  registrationCounts,
  secondsLeft,
  tooManyRegistrations,
  windowOf,
} from '../../shared/domain/rate-limits';
import {
  attendeeCount,
  type AttendeeFilter,
  attendeeMatches,
  ordered,
  type TicketFilter,
  ticketMatches,
  wordsOf,
} from '../../shared/domain/ticket-filters';
import type { AttendeeRecord, TicketRecord } from '../../shared/domain/tickets';

/** The pure rules of the tickets API (docs/tickets.md): rate limits, attendee fields, archive filters, CSV. */

const ticket = (over: Partial<TicketRecord> = {}): TicketRecord => ({
  id: 1,
  post_id: 10,
  author: 'u',
  status: 'publish',
  date: '2027-01-10 09:00:00',
  date_utc: '2027-01-10 09:00:00',
  modified: '2027-01-10 09:00:00',
  modified_utc: '2027-01-10 09:00:00',
  provider: 'rsvp',
  title: 'Entry',
  description: 'At the door',
  capacity: 10,
  sold: 0,
  not_going: 0,
  checked_in: 0,
  registrations: 0,
  waitlisted: 0,
  ...over,
});

const attendee = (over: Partial<AttendeeRecord> = {}): AttendeeRecord => ({
  id: 100,
  post_id: 10,
  ticket_id: 1,
  status: 'going',
  date: '2027-02-01 10:00:00',
  date_utc: '2027-02-01 10:00:00',
  modified: '2027-02-01 10:00:00',
  modified_utc: '2027-02-01 10:00:00',
  provider: 'rsvp',
  full_name: 'Ada Lovelace',
  email: 'ada@example.com',
  checked_in: false,
  security_code: 'abc123',
  token_hash: 'h',
  author: '',
  ...over,
});

const problemOf = (fn: () => unknown): DomainError => {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error('no error thrown');
};

describe('rate limits', () => {
  it('puts an instant in a fixed window aligned on its length', () => {
    const at = Date.UTC(2027, 0, 1, 10, 59, 59);

    expect(windowOf(at, 3600)).toEqual({ start: at / 1000 - 3599, end: at / 1000 + 1 });
    expect(windowOf(at + 1000, 3600).start).toBe(at / 1000 + 1);
  });

  it('says how long until the window ends, at least a second', () => {
    const c = { scope: 'email', bucket: 'b', windowStart: 3600, windowSeconds: 3600, limit: 5 } as const;

    expect(secondsLeft(c, 3600 * 1000)).toBe(3600);
    expect(secondsLeft(c, 7199.5 * 1000)).toBe(1);
    expect(secondsLeft(c, 7200 * 1000)).toBe(1);
  });

  it('counts an address whatever its case and spaces, without keeping the address', () => {
    expect(emailBucket(' Ada@Example.COM ')).toBe(emailBucket('ada@example.com'));
    expect(emailBucket('ada@example.com')).not.toContain('ada');
    expect(emailBucket('ada@example.com')).not.toBe(emailBucket('bob@example.com'));
  });

  it('counts IPv4 clients by address and IPv6 clients by their /64', () => {
    expect(ipBucket('203.0.113.9')).toBe('203.0.113.9');
    expect(ipBucket('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(ipBucket('2001:db8:0:1:aaaa::1')).toBe('2001:db8:0:1::/64');
    expect(ipBucket('2001:DB8:0:1:bbbb:cccc:dddd:eeee')).toBe('2001:db8:0:1::/64');
    expect(ipBucket('::1')).toBe('0:0:0:0::/64');
    expect(ipBucket('999.1.1.1')).toBeUndefined();
    expect(ipBucket('not an address')).toBeUndefined();
    expect(ipBucket('1::2::3')).toBeUndefined();
  });

  it('moves the address and client counters of a registration, each skipped when off (0)', () => {
    const now = Date.UTC(2027, 0, 1, 10, 30);
    const limits = { perEmail: 5, perIp: 30, windowSeconds: 3600 };

    const both = registrationCounts({ email: 'a@b.org', sourceIp: '203.0.113.9' }, limits, now);
    expect(both.map((c) => [c.scope, c.limit, c.windowStart])).toEqual([
      ['email', 5, Date.UTC(2027, 0, 1, 10) / 1000],
      ['ip', 30, Date.UTC(2027, 0, 1, 10) / 1000],
    ]);
    expect(registrationCounts({ email: 'a@b.org' }, limits, now).map((c) => c.scope)).toEqual(['email']);
    expect(
      registrationCounts({ email: 'a@b.org', sourceIp: '1.2.3.4' }, { ...limits, perEmail: 0 }, now),
    ).toHaveLength(1);
    expect(
      registrationCounts({ email: 'a@b.org', sourceIp: '1.2.3.4' }, { ...limits, perIp: 0 }, now),
    ).toHaveLength(1);
  });

  it('answers 429 with when to come back', () => {
    const c = { scope: 'ip', bucket: 'b', windowStart: 0, windowSeconds: 3600, limit: 30 } as const;
    const e = tooManyRegistrations(c, 3000 * 1000);

    expect(e.kind).toBe('too-many');
    expect(e.code).toBe('rest_too_many_registrations');
    expect(e.data).toEqual({ limit: 'ip', retry_after: 600 });
    expect(e.message).toContain('at most 30 in an hour');
    expect([duration(3600), duration(7200), duration(900), duration(90), duration(60)]).toEqual([
      'an hour',
      '2 hours',
      '15 minutes',
      '90 seconds',
      'a minute',
    ]);
  });
});

describe('attendee information fields', () => {
  const fields: AttendeeField[] = normalizeFields([
    { label: 'T-shirt size', type: 'select', required: true, options: ['S', 'M', 'L'] },
    { label: 'Diet', type: 'checkbox', extra: { options: ['vegan', 'gluten-free'] } },
    { slug: 'phone', label: 'Phone', type: 'telephone' },
    { label: 'Birthday', type: 'birth' },
    { label: 'Arrival', type: 'datetime' },
    { label: 'Website', type: 'url' },
    { label: 'Work e-mail', type: 'email' },
    { label: 'Notes', type: 'text', extra: { multiline: true } },
    { label: 'Company', type: 'text' },
  ]);
  const check = (answers: Record<string, unknown> | undefined) =>
    checkAnswers(fields, answers, 'attendee_meta', '2027-03-01');

  it('stores fields in the reference shape: slugs from labels, options in extra', () => {
    expect(fields[0]).toEqual({
      slug: 't-shirt-size',
      type: 'select',
      required: true,
      label: 'T-shirt size',
      extra: { options: ['S', 'M', 'L'] },
    });
    expect(fields[1]).toMatchObject({
      slug: 'diet',
      required: false,
      extra: { options: ['vegan', 'gluten-free'] },
    });
    expect(fields[7]!.extra).toEqual({ multiline: true });
    expect(slugOfLabel('  Café & Crème brûlée! ')).toBe('cafe-creme-brulee');
  });

  it('refuses fields that do not hold together, naming attendee_information_fields', () => {
    const e = problemOf(() =>
      normalizeFields([
        { label: 'Size', type: 'select' },
        { label: 'Size', type: 'text' },
        { label: 'Name', type: 'text', options: ['x'] },
        { label: '!!!', type: 'radio', options: ['a', 'a'] },
        { label: 'When', type: 'datetime', extra: { multiline: true } },
      ]),
    );

    expect(e.code).toBe('rest_invalid_param');
    const reason = (e.data.params as Record<string, string>).attendee_information_fields!;
    expect(reason).toContain(
      'attendee_information_fields[0].extra.options: a select field needs at least one option',
    );
    expect(reason).toContain('"size" is already the slug of another field');
    expect(reason).toContain('only select, radio and checkbox fields have options');
    expect(reason).toContain('gives no slug');
    expect(reason).toContain('an option is listed twice');
    expect(reason).toContain('only text fields are multiline');
  });

  it('keeps good answers as stored: trimmed, a checkbox as a list, a datetime in full, empty ones left out', () => {
    expect(
      check({
        't-shirt-size': 'M',
        diet: ['vegan', 'vegan'],
        phone: '+47 22 33 44 55',
        birthday: '1990-05-17',
        arrival: '2027-03-02T09:30',
        website: 'https://example.org/me',
        'work-e-mail': ' ada@work.example ',
        notes: 'line one\nline two',
        company: '',
      }),
    ).toEqual({
      't-shirt-size': 'M',
      diet: ['vegan'],
      phone: '+47 22 33 44 55',
      birthday: '1990-05-17',
      arrival: '2027-03-02 09:30:00',
      website: 'https://example.org/me',
      'work-e-mail': 'ada@work.example',
      notes: 'line one\nline two',
    });
    expect(check({ 't-shirt-size': 'S', diet: 'gluten-free' })).toEqual({
      't-shirt-size': 'S',
      diet: ['gluten-free'],
    });
  });

  it('names each bad answer by its slug, and a required one missing', () => {
    const e = problemOf(() =>
      check({
        diet: ['meat'],
        phone: 'call me',
        birthday: '2031-01-01',
        arrival: '2027-02-30 10:00',
        website: 'javascript:alert(1)',
        'work-e-mail': 'nope',
        company: 'two\nlines',
        shoe: '42',
      }),
    );

    expect(e.data.fields).toEqual({
      't-shirt-size': 'T-shirt size: an answer is required',
      diet: 'Diet: "meat" is not one of "vegan", "gluten-free"',
      phone: 'Phone: must be a telephone number (digits, spaces, + ( ) - . /)',
      birthday: 'Birthday: must not be in the future',
      arrival: 'Arrival: must be a date and time, Y-m-d H:i',
      website: 'Website: must be an http(s) address',
      'work-e-mail': 'Work e-mail: must be an e-mail address',
      company: 'Company: must be one line',
      shoe: 'is not a question of this ticket',
    });
    expect(Object.keys(e.data.params as object)).toEqual(['attendee_meta']);
    expect((e.data.params as Record<string, string>).attendee_meta).toContain('attendee_meta.t-shirt-size (');
    expect(problemOf(() => check(undefined)).data.fields).toEqual({
      't-shirt-size': 'T-shirt size: an answer is required',
    });
    expect(problemOf(() => check({ 't-shirt-size': 'XL' })).data.fields).toEqual({
      't-shirt-size': 'T-shirt size: must be one of "S", "M", "L"',
    });
    expect(problemOf(() => check({ 't-shirt-size': ['S'] })).data.fields).toMatchObject({
      't-shirt-size': 'T-shirt size: must be text',
    });
  });

  it('takes no answers for a ticket without questions, and refuses any', () => {
    expect(checkAnswers([], undefined, 'information', '2027-03-01')).toEqual({});
    expect(problemOf(() => checkAnswers([], { x: 'y' }, 'information', '2027-03-01')).data.params).toEqual({
      information: 'information.x (is not a question of this ticket)',
    });
  });
});

describe('the archive filters of GET /tickets', () => {
  const base: TicketFilter = { nowWall: '2027-03-01 12:00:00' };
  const matches = (t: TicketRecord, f: Partial<TicketFilter>, status = 'publish') =>
    ticketMatches(t, status, { ...base, ...f });

  it('counts attendees as every registration not cancelled', () => {
    expect(attendeeCount(ticket({ sold: 3, not_going: 2, waitlisted: 1 }))).toBe(6);
    expect(attendeeCount(ticket({ sold: 3, not_going: 0, waitlisted: undefined }))).toBe(3);
  });

  it('bounds attendees and check-ins, at least and at most, inclusive', () => {
    const t = ticket({ sold: 4, checked_in: 2 });

    expect(matches(t, { attendees: { min: 4 } })).toBe(true);
    expect(matches(t, { attendees: { min: 5 } })).toBe(false);
    expect(matches(t, { attendees: { max: 3 } })).toBe(false);
    expect(matches(t, { attendees: { min: 1, max: 4 }, checkedIn: { min: 2, max: 2 } })).toBe(true);
    expect(matches(t, { checkedIn: { max: 1 } })).toBe(false);
  });

  it('compares capacity as the reference: unlimited meets any minimum and no maximum', () => {
    const unlimited = ticket({ capacity: -1 });

    expect(matches(unlimited, { capacity: { min: 1000 } })).toBe(true);
    expect(matches(unlimited, { capacity: { max: 1000 } })).toBe(false);
    expect(matches(unlimited, { capacity: { min: 0, max: 1000 } })).toBe(false);
    expect(matches(ticket({ capacity: 10 }), { capacity: { min: 5, max: 10 } })).toBe(true);
    expect(matches(ticket({ capacity: 10 }), { capacity: { max: 9 } })).toBe(false);
  });

  it('keeps tickets whose sales start on or after available_from, or end on or before available_until', () => {
    const windowed = ticket({
      available_from: '2027-04-01 00:00:00',
      available_until: '2027-05-01 23:59:59',
    });
    const open = ticket();

    expect(matches(windowed, { availableFrom: '2027-04-01 00:00:00' })).toBe(true);
    expect(matches(windowed, { availableFrom: '2027-04-02 00:00:00' })).toBe(false);
    expect(matches(windowed, { availableUntil: '2027-05-01 23:59:59' })).toBe(true);
    expect(matches(windowed, { availableUntil: '2027-04-30 23:59:59' })).toBe(false);
    expect(
      matches(open, { availableFrom: '2030-01-01 00:00:00', availableUntil: '2000-01-01 00:00:00' }),
    ).toBe(true);
  });

  it('filters by creation date, event status, provider, words, IDs and currency', () => {
    const t = ticket();

    expect(matches(t, { after: '2027-01-10 09:00:00', before: '2027-01-10 09:00:00' })).toBe(true);
    expect(matches(t, { after: '2027-01-10 09:00:01' })).toBe(false);
    expect(matches(t, { before: '2027-01-10 08:59:59' })).toBe(false);
    expect(matches(t, { eventStatuses: ['draft'] }, 'draft')).toBe(true);
    expect(matches(t, { eventStatuses: ['draft'] })).toBe(false);
    expect(matches(t, { provider: 'tickets' })).toBe(false);
    expect(matches(t, { words: wordsOf('ENTRY door') })).toBe(true);
    expect(matches(t, { words: ['exit'] })).toBe(false);
    expect(matches(t, { include: [2], exclude: [] })).toBe(false);
    expect(matches(t, { posts: [10], excludePosts: [11] })).toBe(true);
    expect(matches(t, { currency: ['USD'] })).toBe(false);
    expect(matches(t, { isAvailable: true })).toBe(true);
    expect(matches(ticket({ sold: 10 }), { isAvailable: true })).toBe(false);
  });
});

describe('the archive filters of GET /attendees', () => {
  const base: AttendeeFilter = { statuses: ['going', 'not going', 'waitlist'] };
  const matches = (a: AttendeeRecord, f: Partial<AttendeeFilter>, status = 'publish') =>
    attendeeMatches(a, status, { ...base, ...f });

  it('lists every status but cancelled unless asked', () => {
    expect(matches(attendee({ status: 'cancelled' }), {})).toBe(false);
    expect(matches(attendee({ status: 'cancelled' }), { statuses: ['cancelled'] })).toBe(true);
    expect(matches(attendee({ status: 'waitlist' }), {})).toBe(true);
  });

  it('searches words in the name or the e-mail address, and name / email as parts of them', () => {
    const a = attendee();

    expect(matches(a, { words: wordsOf('lovelace EXAMPLE') })).toBe(true);
    expect(matches(a, { words: ['babbage'] })).toBe(false);
    expect(matches(a, { name: 'love' })).toBe(true);
    expect(matches(a, { name: 'example' })).toBe(false);
    expect(matches(a, { email: 'ada@' })).toBe(true);
    expect(matches(a, { email: 'lovelace' })).toBe(false);
  });

  it('filters by ticket, event, provider, check-in, going, dates and event status', () => {
    const a = attendee({ checked_in: true });

    expect(matches(a, { tickets: [1], excludeTickets: [2] })).toBe(true);
    expect(matches(a, { excludeTickets: [1] })).toBe(false);
    expect(matches(a, { posts: [11] })).toBe(false);
    expect(matches(a, { excludePosts: [10] })).toBe(false);
    expect(matches(a, { providers: ['tickets'] })).toBe(false);
    expect(matches(a, { providers: ['rsvp', 'tickets'] })).toBe(true);
    expect(matches(a, { checkedIn: false })).toBe(false);
    expect(matches(a, { going: false })).toBe(false);
    expect(matches(attendee({ status: 'not going' }), { going: false })).toBe(true);
    expect(matches(a, { after: '2027-02-01 10:00:00', before: '2027-02-01 10:00:00' })).toBe(true);
    expect(matches(a, { after: '2027-02-02 00:00:00' })).toBe(false);
    expect(matches(a, { eventStatuses: ['publish'] }, 'draft')).toBe(false);
  });
});

describe('the archive order', () => {
  const records = [
    ticket({ id: 3, title: 'Zebra', date_utc: '2027-01-01 00:00:00' }),
    ticket({ id: 1, title: 'apple', date_utc: '2027-01-03 00:00:00' }),
    ticket({ id: 2, title: 'Éclair', date_utc: '2027-01-02 00:00:00' }),
  ];
  const ids = (o: Parameters<typeof ordered>[1]) => ordered(records, o, (t) => t.title).map((t) => t.id);

  it('orders by ID by default, by title (case and accents aside), date or slug, either way', () => {
    expect(ids({ orderby: 'id', descending: false })).toEqual([1, 2, 3]);
    expect(ids({ orderby: 'id', descending: true })).toEqual([3, 2, 1]);
    expect(ids({ orderby: 'title', descending: false })).toEqual([1, 2, 3]);
    expect(ids({ orderby: 'slug', descending: true })).toEqual([3, 2, 1]);
    expect(ids({ orderby: 'date', descending: false })).toEqual([3, 2, 1]);
  });

  it('orders by the include list, the others after it by ID', () => {
    expect(ids({ orderby: 'include', descending: false, include: [2, 3] })).toEqual([2, 3, 1]);
  });

  it('breaks ties by ID', () => {
    const same = [ticket({ id: 9, title: 'A' }), ticket({ id: 4, title: 'a' })];
    expect(ordered(same, { orderby: 'title', descending: false }, (t) => t.title).map((t) => t.id)).toEqual([
      4, 9,
    ]);
  });
});

describe('the attendee CSV', () => {
  const withFields = ticket({
    id: 1,
    title: 'Entry',
    attendee_information_fields: normalizeFields([
      { label: 'Size', type: 'select', options: ['S', 'M'] },
      { label: 'Diet', type: 'checkbox', options: ['vegan', 'halal'] },
    ]),
  });
  const other = ticket({
    id: 2,
    title: '=Workshop',
    attendee_information_fields: normalizeFields([
      { label: 'Size', slug: 'shirt', type: 'text' },
      { label: 'Diet', type: 'text' },
    ]),
  });

  it('has a column per question of the tickets listed, one per slug, labels told apart', () => {
    expect(questionColumns([withFields, other])).toEqual([
      { slug: 'size', header: 'Size' },
      { slug: 'diet', header: 'Diet' },
      { slug: 'shirt', header: 'Size (shirt)' },
    ]);
  });

  it('writes a row an attendee, formulas behind a quote, the code only for those going', () => {
    const rows = attendeeRows(
      [
        attendee({
          id: 7,
          information: { size: 'M', diet: ['vegan', 'halal'] },
          checked_in: true,
          checkin_utc: '2027-02-02 18:00:00',
        }),
        attendee({
          id: 8,
          ticket_id: 2,
          full_name: '=HYPERLINK("x")',
          status: 'waitlist',
          information: { shirt: '-L' },
        }),
      ],
      new Map([
        [1, withFields],
        [2, other],
      ]),
    );

    expect(rows[0]).toEqual([
      'Attendee ID',
      'Name',
      'E-mail',
      'Status',
      'Ticket ID',
      'Ticket',
      'Event ID',
      'Provider',
      'Registered (UTC)',
      'Checked in',
      'Checked in at (UTC)',
      'Security code',
      'Size',
      'Diet',
      'Size (shirt)',
    ]);
    expect(rows[1]).toEqual([
      '7',
      'Ada Lovelace',
      'ada@example.com',
      'going',
      '1',
      'Entry',
      '10',
      'rsvp',
      '2027-02-01 10:00:00',
      'yes',
      '2027-02-02 18:00:00',
      'abc123',
      'M',
      'vegan, halal',
      '',
    ]);
    expect(rows[2]!.slice(0, 6)).toEqual([
      '8',
      `'=HYPERLINK("x")`,
      'ada@example.com',
      'waitlist',
      '2',
      "'=Workshop",
    ]);
    expect(rows[2]![11]).toBe('');
    expect(rows[2]![14]).toBe("'-L");
  });
});
