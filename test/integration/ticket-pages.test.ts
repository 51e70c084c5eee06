import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildNode, Element } from 'domhandler';
import { findAll, findOne, textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { beforeAll, describe, expect, it } from 'vitest';
import { sendDueMail } from '../../shared/services/tickets';
import { anEvent, creator, type Rec } from '../support/bodies';
import { readOutbox } from '../support/outbox';
import { useStack } from '../support/use-stack';

/**
 * The tickets' pages over HTTP (docs/tickets.md, "Pages"; issue 42): the event page's tickets and its
 * registration form, posted as a browser without a script posts it, with its error answers (a bad
 * field, no seat left, closed, another site's post), the attendee's own page by its secret link, and
 * its cancellation. test/browser/ticket-pages.test.ts drives the same pages in Chromium.
 */

const outbox = await mkdtemp(join(tmpdir(), 'outbox-'));
process.env.CAL_OUTBOX_DIR = outbox;
const { api, tokens } = await useStack({ tokens: { editor: 'editor' } });
const t = (path: string) => `${api.origin}/cal/tickets/v1${path}`;

let event: Rec;
let other: Rec;
/** Two seats. */
let entry: Rec;
/** An RSVP, unlimited. */
let rsvp: Rec;
/** Sales ended. */
let closed: Rec;
let otherTicket: Rec;

beforeAll(async () => {
  const created = creator(api, tokens.editor);
  const ticket = async (body: Rec) => {
    const res = await api.post(t('/tickets'), body, { token: tokens.editor });
    expect(res.status).toBe(201);
    return res.body as Rec;
  };
  event = await created(
    '/events',
    anEvent({
      title: 'Harbour Concert',
      status: 'publish',
      start_date: '2031-05-01 19:00:00',
      end_date: '2031-05-01 21:00:00',
    }),
  );
  other = await created('/events', anEvent({ title: 'Other', status: 'publish' }));
  entry = await ticket({
    post_id: event.id,
    title: 'Entry',
    provider: 'tickets',
    capacity: 2,
    description: 'Standing.',
  });
  rsvp = await ticket({ post_id: event.id, title: 'Guest list', provider: 'rsvp' });
  closed = await ticket({
    post_id: event.id,
    title: 'Early bird',
    provider: 'tickets',
    capacity: 10,
    available_until: '2020-01-01',
  });
  otherTicket = await ticket({ post_id: other.id, title: 'Other entry', capacity: 5 });
});

const eventPath = () => new URL(event.url).pathname;

function parse(html: string) {
  const doc = parseDocument(html);
  const all = (test: (e: Element) => boolean) => findAll(test, doc.children as ChildNode[]);
  const one = (test: (e: Element) => boolean) => findOne(test, doc.children as ChildNode[]) ?? undefined;
  const byId = (id: string) => one((e) => e.attribs.id === id);
  return { all, one, byId, text: (e?: Element) => (e ? textContent(e).replace(/\s+/g, ' ').trim() : '') };
}

async function get(path: string) {
  const res = await fetch(`${api.origin}${path}`, { redirect: 'manual' });
  const html = await res.text();
  return { res, html, ...parse(html) };
}

/** A form post as a browser sends it from the site's own page (Sec-Fetch-Site: same-origin). */
async function post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await fetch(`${api.origin}${path}`, {
    method: 'POST',
    redirect: 'manual',
    // A header given as '' is left out (an older browser sends no Sec-Fetch-Site).
    headers: Object.fromEntries(
      Object.entries({
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': 'same-origin',
        ...headers,
      }).filter(([, v]) => v !== ''),
    ),
    body: new URLSearchParams(fields).toString(),
  });
  const html = await res.text();
  return { res, html, ...parse(html) };
}

const register = (fields: Record<string, string>, headers?: Record<string, string>) =>
  post(`${eventPath()}register/`, fields, headers);

const ticketNow = async (id: number) =>
  (await api.get(t(`/tickets/${id}`), { token: tokens.editor })).body as Rec;
const attendeesOf = async (ticketId: number) =>
  ((await api.get(t(`/attendees?ticket_id=${ticketId}`), { token: tokens.editor })).body.attendees ??
    []) as Rec[];

describe("the event page's tickets", () => {
  it('shows each ticket with its seats left, its sales window and a registration form that needs no script', async () => {
    const p = await get(eventPath());
    expect(p.res.status).toBe(200);
    // Seats change with every registration: the edge keeps the page a minute, browsers do not keep it.
    expect(p.res.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=60');
    const section = p.one((e) => e.attribs['data-role'] === 'tickets')!;
    expect(section).toBeDefined();
    const block = (id: number) => p.byId(`ticket-${id}`)!;
    expect(
      p.text(findOne((e) => e.attribs['data-role'] === 'seats-left', [block(entry.id)]) ?? undefined),
    ).toBe('2 of 2 seats left');
    expect(
      p.text(findOne((e) => e.attribs['data-role'] === 'seats-left', [block(rsvp.id)]) ?? undefined),
    ).toBe('Unlimited seats');
    expect(block(closed.id).attribs['data-state']).toBe('closed');
    expect(p.text(block(closed.id))).toContain('Registration closed Wednesday, 1 January 2020, 23:59 (UTC).');
    expect(findOne((e) => e.name === 'form', [block(closed.id)])).toBeNull();

    // The form: a plain POST to the event's register address, each field labelled, with autocomplete.
    const form = findOne((e) => e.name === 'form', [block(entry.id)])!;
    expect(form.attribs).toMatchObject({ method: 'post', action: `${eventPath()}register/` });
    const inputs = findAll((e) => e.name === 'input' && e.attribs.type !== 'hidden', [form]);
    expect(inputs.map((i) => [i.attribs.name, i.attribs.autocomplete, 'required' in i.attribs])).toEqual([
      ['full_name', 'name', true],
      ['email', 'email', true],
    ]);
    for (const input of inputs)
      expect(p.one((e) => e.name === 'label' && e.attribs.for === input.attribs.id)).toBeDefined();
    expect(p.text(findOne((e) => e.name === 'legend', [form]) ?? undefined)).toBe('Register for Entry');
    // An RSVP asks whether one is going, in a fieldset of its own.
    const rsvpForm = findOne((e) => e.name === 'form', [block(rsvp.id)])!;
    const legends = findAll((e) => e.name === 'legend', [rsvpForm]).map((l) => p.text(l));
    expect(legends).toEqual(['Register for Guest list', 'Will you attend?']);
    expect(
      findAll((e) => e.name === 'input' && e.attribs.type === 'radio', [rsvpForm]).map(
        (r) => r.attribs.value,
      ),
    ).toEqual(['going', 'not going']);
  });
});

describe('registering from the page', () => {
  it('answers a bad e-mail address 400 with the form as sent, its error tied to the field and a summary that takes the focus; nothing is written', async () => {
    const p = await register({
      ticket_id: String(entry.id),
      full_name: 'Ada Lovelace',
      email: 'ada-at-example',
    });
    expect(p.res.status).toBe(400);
    expect(p.res.headers.get('cache-control')).toBe('no-store');
    expect(p.text(p.one((e) => e.name === 'title'))).toBe('Error: Harbour Concert – Event calendar');
    const summary = p.byId(`register-${entry.id}-problems`)!;
    expect(summary.attribs).toHaveProperty('autofocus');
    expect(summary.attribs.tabindex).toBe('-1');
    const link = findOne((e) => e.name === 'a', [summary])!;
    expect(link.attribs.href).toBe(`#register-${entry.id}-email`);
    expect(p.text(link)).toBe('Enter an e-mail address in the form name@example.org.');
    const email = p.byId(`register-${entry.id}-email`)!;
    expect(email.attribs['aria-invalid']).toBe('true');
    expect(email.attribs['aria-describedby']).toContain(`register-${entry.id}-email-error`);
    expect(p.text(p.byId(`register-${entry.id}-email-error`))).toBe(
      'Error: Enter an e-mail address in the form name@example.org.',
    );
    expect(email.attribs.value).toBe('ada-at-example');
    expect(p.byId(`register-${entry.id}-full_name`)!.attribs.value).toBe('Ada Lovelace');
    expect((await ticketNow(entry.id)).capacity_details.sold).toBe(0);
    expect(await attendeesOf(entry.id)).toEqual([]);
  });

  it('names every missing field at once', async () => {
    const p = await register({ ticket_id: String(entry.id), full_name: '  ', email: '' });
    expect(p.res.status).toBe(400);
    const items = p.all((e) => e.name === 'li' && e.parent !== null).map((li) => p.text(li));
    expect(items).toEqual(expect.arrayContaining(['Enter your name.', 'Enter your e-mail address.']));
  });

  it('refuses a post from another site (403), by Sec-Fetch-Site or, without it, by Origin; nothing is written', async () => {
    const fields = { ticket_id: String(entry.id), full_name: 'Mallory', email: 'mallory@example.com' };
    const crossSite = await register(fields, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.res.status).toBe(403);
    expect(crossSite.text(crossSite.one((e) => e.name === 'h1'))).toBe(
      'This form was not sent from this site',
    );
    expect((await register(fields, { 'sec-fetch-site': 'same-site' })).res.status).toBe(403);
    const res = await fetch(`${api.origin}${eventPath()}register/`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      body: new URLSearchParams(fields).toString(),
    });
    expect(res.status).toBe(403);
    expect(await attendeesOf(entry.id)).toEqual([]);
  });

  it('registers and answers 303 to the attendee page, whose address holds the secret; the mail carries the same link', async () => {
    // An older browser: no Sec-Fetch-Site, its Origin the site's own.
    const p = await register(
      { ticket_id: String(entry.id), full_name: 'Grace Hopper', email: 'Grace@Example.com' },
      { 'sec-fetch-site': '', origin: api.origin },
    );
    expect(p.res.status).toBe(303);
    expect(p.res.headers.get('cache-control')).toBe('no-store');
    expect(p.res.headers.get('referrer-policy')).toBe('no-referrer');
    const location = p.res.headers.get('location')!;
    const [, id, token] = /^\/attendee\/(\d+)\/\?token=([\w-]+)&done=registered$/.exec(location)!;
    expect((await ticketNow(entry.id)).capacity_details.sold).toBe(1);

    const own = await get(location);
    expect(own.res.status).toBe(200);
    expect(own.res.headers.get('cache-control')).toBe('no-store');
    expect(own.res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(own.res.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(own.one((e) => e.name === 'meta' && e.attribs.name === 'robots')?.attribs.content).toBe(
      'noindex, nofollow',
    );
    expect(own.one((e) => e.name === 'meta' && e.attribs.name === 'referrer')?.attribs.content).toBe(
      'no-referrer',
    );
    const role = (r: string) => own.text(own.one((e) => e.attribs['data-role'] === r));
    expect(role('done')).toContain('your registration is recorded');
    expect(role('status')).toBe('You are going: a seat is yours.');
    expect(role('ticket')).toBe('Entry');
    expect(role('name')).toBe('Grace Hopper');
    expect(role('security-code')).toMatch(/^[0-9a-f]{10}$/);
    expect(own.one((e) => e.attribs['data-role'] === 'qr')!.attribs.src).toMatch(
      /^data:image\/svg\+xml;base64,/,
    );
    expect(own.one((e) => e.attribs['data-role'] === 'add-to-calendar')!.attribs.href).toBe(
      `/cal/events/v1/events/${event.id}/ical`,
    );
    expect(own.one((e) => e.attribs['data-role'] === 'event')!.children).toBeDefined();
    expect(own.html).not.toContain('grace@example.com');

    await sendDueMail();
    const mail = (await readOutbox(outbox)).find((m) => m.name === `attendee-${id}-confirmation.eml`)!;
    expect(mail.parts[0]!.body).toContain(`http://calendar.test/attendee/${id}/?token=${token}`);
  });

  it('answers 409 once the seats are gone, with the form offering the waitlist and keeping what was sent; joining it answers 303', async () => {
    const second = await register({
      ticket_id: String(entry.id),
      full_name: 'Alan',
      email: 'alan@example.com',
    });
    expect(second.res.status).toBe(303);
    const full = await register({
      ticket_id: String(entry.id),
      full_name: 'Barbara',
      email: 'barbara@example.com',
    });
    expect(full.res.status).toBe(409);
    expect(full.text(full.one((e) => e.attribs['data-role'] === 'form-problem'))).toContain(
      'All seats of this ticket are taken',
    );
    const block = full.byId(`ticket-${entry.id}`)!;
    expect(block.attribs['data-state']).toBe('sold-out');
    expect(full.text(findOne((e) => e.attribs['data-role'] === 'seats-left', [block]) ?? undefined)).toBe(
      '0 of 2 seats left',
    );
    expect(findOne((e) => e.name === 'input' && e.attribs.name === 'waitlist', [block])?.attribs.value).toBe(
      '1',
    );
    expect(full.text(findOne((e) => e.name === 'button', [block]) ?? undefined)).toBe('Join the waitlist');
    expect(full.byId(`register-${entry.id}-email`)!.attribs.value).toBe('barbara@example.com');
    expect((await ticketNow(entry.id)).capacity_details.sold).toBe(2);

    const joined = await register({
      ticket_id: String(entry.id),
      full_name: 'Barbara',
      email: 'barbara@example.com',
      waitlist: '1',
    });
    expect(joined.res.status).toBe(303);
    const own = await get(joined.res.headers.get('location')!);
    expect(own.text(own.one((e) => e.attribs['data-role'] === 'status'))).toContain(
      'You are on the waitlist',
    );
    expect(own.one((e) => e.attribs['data-role'] === 'security-code')).toBeUndefined();
  });

  it('records an RSVP answer of not going, which takes no seat', async () => {
    const p = await register({
      ticket_id: String(rsvp.id),
      full_name: 'Edsger',
      email: 'edsger@example.com',
      attendee_status: 'not going',
    });
    expect(p.res.status).toBe(303);
    const own = await get(p.res.headers.get('location')!);
    expect(own.text(own.one((e) => e.attribs['data-role'] === 'status'))).toBe(
      'You answered that you are not going.',
    );
    expect((await ticketNow(rsvp.id)).rsvp).toEqual({ rsvp_going: 0, rsvp_not_going: 1 });
  });

  it("answers 409 for a ticket no longer on sale, and 404 for another event's ticket or a form that names none", async () => {
    const fields = { full_name: 'Frances', email: 'frances@example.com' };
    const late = await register({ ...fields, ticket_id: String(closed.id) });
    expect(late.res.status).toBe(409);
    expect(late.text(late.one((e) => e.attribs['data-role'] === 'form-problem'))).toBe(
      'Registration for this ticket is not open now.',
    );
    expect((await register({ ...fields, ticket_id: String(otherTicket.id) })).res.status).toBe(404);
    expect((await register({ ...fields, ticket_id: 'x' })).res.status).toBe(404);
    expect(
      (await post('/event/no-such-event/register/', { ...fields, ticket_id: String(entry.id) })).res.status,
    ).toBe(404);
    expect(await attendeesOf(otherTicket.id)).toEqual([]);
  });

  it('answers 429 past the limit of registrations per e-mail address, with Retry-After and the form as sent', async () => {
    const fields = { ticket_id: String(rsvp.id), full_name: 'Rosalind', email: 'rosalind@example.com' };
    for (let i = 0; i < 5; i++) expect((await register(fields)).res.status).toBe(303);
    const before = (await ticketNow(rsvp.id)).capacity_details.sold;
    const limited = await register(fields);
    expect(limited.res.status).toBe(429);
    expect(Number(limited.res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.text(limited.one((e) => e.attribs['data-role'] === 'form-problem'))).toMatch(
      /^Too many registrations from this e-mail address/,
    );
    expect(limited.byId(`register-${rsvp.id}-email`)!.attribs.value).toBe('rosalind@example.com');
    expect((await ticketNow(rsvp.id)).capacity_details.sold).toBe(before);
  });

  it('answers 400 to a body that is not a form', async () => {
    const res = await fetch(`${api.origin}${eventPath()}register/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ticket_id: entry.id, full_name: 'J', email: 'j@example.com' }),
    });
    expect(res.status).toBe(400);
  });
});

describe("the attendee's own page", () => {
  const newAttendee = async () => {
    const res = await api.post(t('/attendees'), {
      ticket_id: rsvp.id,
      full_name: 'Kathleen',
      email: 'k@example.com',
    });
    expect(res.status).toBe(201);
    return res.body as Rec;
  };

  it('is 404 without the right token, the same as for an attendee who does not exist', async () => {
    const a = await newAttendee();
    const unknown = await get('/attendee/999999/?token=abc');
    expect(unknown.res.status).toBe(404);
    for (const path of [
      `/attendee/${a.id}/`,
      `/attendee/${a.id}/?token=wrong`,
      `/attendee/${a.id}/?token=${a.token}x`,
    ]) {
      const p = await get(path);
      expect(p.res.status).toBe(404);
      expect(p.html).toBe(unknown.html);
      expect(p.res.headers.get('cache-control')).toBe('no-store');
    }
    expect((await get(`/attendee/${a.id}/cancel/?token=wrong`)).res.status).toBe(404);
    expect((await get('/attendee/abc/')).res.status).toBe(404);
  });

  it('cancels after asking, by a form post with the token, and the freed seat goes to the first waiting', async () => {
    const one = await api.post(
      t('/tickets'),
      { post_id: event.id, title: 'Balcony', capacity: 1 },
      { token: tokens.editor },
    );
    const fields = (name: string) => ({
      ticket_id: String(one.body.id),
      full_name: name,
      email: `${name}@example.com`,
    });
    const first = (await register(fields('linus'))).res.headers.get('location')!;
    const second = (await register({ ...fields('margaret'), waitlist: '1' })).res.headers.get('location')!;
    const [, id, token = ''] = /^\/attendee\/(\d+)\/\?token=([\w-]+)/.exec(first)!;
    const ask = await get(`/attendee/${id}/cancel/?token=${token}`);
    expect(ask.res.status).toBe(200);
    expect(ask.res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(ask.text(ask.one((e) => e.name === 'h1'))).toBe('Cancel your registration?');
    expect(ask.text(ask.one((e) => e.name === 'main'))).toContain(
      'Your seat goes to the first person on the waitlist',
    );
    const form = ask.one((e) => e.name === 'form')!;
    expect(form.attribs).toMatchObject({ method: 'post', action: `/attendee/${id}/cancel/` });
    expect(findOne((e) => e.attribs.name === 'token', [form])!.attribs.value).toBe(token);

    // Without the right token, or from another site: nothing happens.
    expect((await post(`/attendee/${id}/cancel/`, { token: 'nope' })).res.status).toBe(404);
    expect(
      (await post(`/attendee/${id}/cancel/`, { token }, { 'sec-fetch-site': 'cross-site' })).res.status,
    ).toBe(403);
    expect((await ticketNow(one.body.id)).capacity_details.sold).toBe(1);

    const done = await post(`/attendee/${id}/cancel/`, { token });
    expect(done.res.status).toBe(303);
    expect(done.res.headers.get('location')).toBe(`/attendee/${id}/?token=${token}&done=cancelled`);
    const after = await get(done.res.headers.get('location')!);
    expect(after.text(after.one((e) => e.attribs['data-role'] === 'done'))).toBe(
      'Your registration is cancelled.',
    );
    expect(after.text(after.one((e) => e.attribs['data-role'] === 'status'))).toBe(
      'This registration is cancelled.',
    );
    expect(after.one((e) => e.attribs['data-role'] === 'cancel')).toBeUndefined();
    expect(after.one((e) => e.attribs['data-role'] === 'security-code')).toBeUndefined();
    // Sent again (a reload of the answer): the same answer, nothing more happens.
    expect((await post(`/attendee/${id}/cancel/`, { token })).res.status).toBe(303);

    // The seat went to the one waiting, whose page now says so.
    const promoted = await get(second);
    expect(promoted.text(promoted.one((e) => e.attribs['data-role'] === 'status'))).toBe(
      'You are going: a seat is yours.',
    );
    expect((await ticketNow(one.body.id)).capacity_details.sold).toBe(1);
  });
});
