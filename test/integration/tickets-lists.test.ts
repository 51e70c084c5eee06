import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { useStack } from '../support/use-stack';

/**
 * The archive parameters of GET /tickets and GET /attendees (after the reference's Ticket_Archive and
 * Attendee_Archive) and the attendees' CSV export (docs/tickets.md).
 */

const { api, tokens } = await useStack({
  tokens: { editor: 'editor', author: ['author', 'user-lister'], other: 'author' },
});
const t = (path: string) => `${api.origin}/cal/tickets/v1${path}`;
const asEditor = { token: tokens.editor };
type Rec = Record<string, any>;

async function event(title: string, status = 'publish', token = tokens.editor): Promise<number> {
  const res = await api.post(
    '/events',
    { title, status, start_date: '2027-11-05 18:00:00', end_date: '2027-11-05 20:00:00' },
    { token },
  );
  expect(res.status).toBe(201);
  return res.body.id;
}

async function ticket(body: Rec): Promise<Rec> {
  const res = await api.post(t('/tickets'), body, asEditor);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const register = async (ticket_id: number, full_name: string, extra: Rec = {}): Promise<Rec> => {
  const email = `${full_name.toLowerCase().replace(/\W+/g, '.')}@example.com`;
  const res = await api.post(t('/attendees'), { ticket_id, full_name, email, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};

const ids = (res: { body: Rec }, key = 'tickets') => (res.body[key] as Rec[]).map((x) => x.id as number);

let shown: number;
let hidden: number;
let zebra: Rec;
let apple: Rec;
let mango: Rec;
let draftTicket: Rec;
let people: Rec[];

beforeAll(async () => {
  shown = await event('Harbour festival');
  hidden = await event('Secret rehearsal', 'draft');
  zebra = await ticket({
    post_id: shown,
    title: 'Zebra pass',
    provider: 'rsvp',
    capacity: 10,
    attendee_information_fields: [{ label: 'Diet', type: 'checkbox', options: ['vegan', 'halal'] }],
  });
  apple = await ticket({
    post_id: shown,
    title: 'Apple pass',
    provider: 'tickets',
    available_from: '2027-01-01 09:00',
    available_until: '2027-10-31',
  });
  mango = await ticket({ post_id: shown, title: 'Mango pass', provider: 'tickets', capacity: 3 });
  draftTicket = await ticket({ post_id: hidden, title: 'Draft pass' });
  people = [
    await register(zebra.id, 'Ada Lovelace', { attendee_meta: { diet: ['vegan', 'halal'] } }),
    await register(zebra.id, 'Charles Babbage', { attendee_status: 'not going' }),
    await register(zebra.id, 'Grace Hopper'),
    await register(mango.id, 'Alan Turing'),
    await register(mango.id, '=HYPERLINK("http://evil.example")', { email: 'evil@example.com' }),
  ];
  // Checked in at Mango; one of Zebra's cancelled.
  expect((await api.put(t(`/attendees/${people[3]!.id}`), { check_in: true }, asEditor)).status).toBe(200);
  expect((await api.del(t(`/attendees/${people[2]!.id}`), asEditor)).status).toBe(200);
}, 120_000);

describe('GET /tickets archive parameters', () => {
  const of = (q: string, token?: string) =>
    api.get(t(`/tickets?post_id=${shown}&${q}`), token ? { token } : {});

  it('orders by id (the default), title, slug or the include list, either way (ASC / DESC too)', async () => {
    expect(ids(await of(''))).toEqual([zebra.id, apple.id, mango.id]);
    expect(ids(await of('orderby=title'))).toEqual([apple.id, mango.id, zebra.id]);
    expect(ids(await of('orderby=title&order=DESC'))).toEqual([zebra.id, mango.id, apple.id]);
    expect(ids(await of('orderby=slug&order=desc'))).toEqual([zebra.id, mango.id, apple.id]);
    expect(ids(await of(`orderby=include&include=${mango.id},${zebra.id}`))).toEqual([mango.id, zebra.id]);
    expect((await of('orderby=price')).status).toBe(400);
  });

  it('skips offset records before paging, and counts what is left', async () => {
    const res = await of('offset=1&per_page=1');
    expect(ids(res)).toEqual([apple.id]);
    expect(res.body.total).toBe(2);
    expect(res.headers.get('x-cal-total')).toBe('2');
    expect(ids(await of('offset=1&per_page=1&page=2'))).toEqual([mango.id]);
    expect(ids(await of('offset=5'))).toEqual([]);
  });

  it('filters managers by attendees, check-ins and capacity; others are not filtered by them', async () => {
    // Zebra: 2 attendees (one going, one not going; one cancelled), Mango 2 (one checked in), Apple 0.
    expect(ids(await of('attendees_min=2', tokens.editor))).toEqual([zebra.id, mango.id]);
    expect(ids(await of('attendees_max=0', tokens.editor))).toEqual([apple.id]);
    expect(ids(await of('attendees_min=1&attendees_max=2', tokens.editor))).toEqual([zebra.id, mango.id]);
    expect(ids(await of('checkedin_min=1', tokens.editor))).toEqual([mango.id]);
    expect(ids(await of('checkedin_max=0', tokens.editor))).toEqual([zebra.id, apple.id]);
    // Unlimited (Apple) meets any minimum and no maximum.
    expect(ids(await of('capacity_min=5', tokens.editor))).toEqual([zebra.id, apple.id]);
    expect(ids(await of('capacity_max=5', tokens.editor))).toEqual([mango.id]);
    expect(ids(await of('capacity_min=3&capacity_max=10', tokens.editor))).toEqual([zebra.id, mango.id]);
    expect(ids(await of('attendees_min=2&capacity_max=5'))).toEqual([zebra.id, apple.id, mango.id]);
  });

  it('filters by the sales window and by when tickets were created', async () => {
    // Apple sells from 2027-01-01 09:00 to 2027-10-31 (its day's end); the others have no window.
    expect(ids(await of('available_from=2027-01-01'))).toEqual([zebra.id, apple.id, mango.id]);
    expect(ids(await of('available_from=2027-01-02'))).toEqual([zebra.id, mango.id]);
    expect(ids(await of('available_until=2027-10-31'))).toEqual([zebra.id, apple.id, mango.id]);
    expect(ids(await of('available_until=2027-10-30T12:00:00Z'))).toEqual([zebra.id, mango.id]);
    const today = new Date().toISOString().slice(0, 10);
    expect(ids(await of(`after=${today}&before=${today}`))).toEqual([zebra.id, apple.id, mango.id]);
    expect(ids(await of('after=tomorrow'))).toEqual([]);
    expect(ids(await of('before=2020-01-01'))).toEqual([]);
    const bad = await of('after=not-a-date');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.data.params)).toEqual(['after']);
  });

  it("filters by the event's status, as far as the caller may see, and by currency", async () => {
    const drafts = await api.get(t('/tickets?post_status=draft'), asEditor);
    expect(ids(drafts)).toEqual([draftTicket.id]);
    expect(ids(await api.get(t('/tickets?post_status=draft')))).toEqual([]);
    expect(
      ids(await api.get(t(`/tickets?post_status=any&include=${draftTicket.id},${zebra.id}`), asEditor)),
    ).toEqual([zebra.id, draftTicket.id]);
    // No ticket has a price, so none has a currency.
    expect(ids(await of('currency=USD,eur'))).toEqual([]);
    expect((await of('currency=dollars')).status).toBe(400);
  });
});

describe('GET /attendees archive parameters', () => {
  const of = (q: string, token = tokens.editor) => api.get(t(`/attendees?post_id=${shown}&${q}`), { token });
  const people3 = () => people.map((p) => p.id as number);

  it('lists every registration but cancelled ones by default; status picks them', async () => {
    const [ada, charles, grace, alan, evil] = people3();
    expect(ids(await of(''), 'attendees')).toEqual([ada, charles, alan, evil]);
    expect(ids(await of('status=cancelled'), 'attendees')).toEqual([grace]);
    expect(ids(await of('status=any'), 'attendees')).toEqual([ada, charles, grace, alan, evil]);
    expect(ids(await of('status=not going,cancelled'), 'attendees')).toEqual([charles, grace]);
  });

  it('searches the name and the e-mail address, and matches name / email as parts', async () => {
    const [ada, charles, , alan, evil] = people3();
    expect(ids(await of('search=lovelace'), 'attendees')).toEqual([ada]);
    expect(ids(await of('search=example.com%20a'), 'attendees')).toEqual([ada, charles, alan, evil]);
    expect(ids(await of('name=BAB'), 'attendees')).toEqual([charles]);
    expect(ids(await of('email=alan.turing@'), 'attendees')).toEqual([alan]);
    expect(ids(await of('name=example.com'), 'attendees')).toEqual([]);
  });

  it('filters by ticket, provider, check-in and dates; orders and offsets', async () => {
    const [ada, charles, , alan, evil] = people3();
    expect(ids(await of(`include_ticket=${mango.id}`), 'attendees')).toEqual([alan, evil]);
    expect(ids(await of(`exclude_ticket=${mango.id}`), 'attendees')).toEqual([ada, charles]);
    expect(ids(await of('provider=rsvp'), 'attendees')).toEqual([ada, charles]);
    expect(ids(await of('checkedin=true'), 'attendees')).toEqual([alan]);
    expect(ids(await of('before=2020-01-01'), 'attendees')).toEqual([]);
    expect(ids(await of('orderby=title&order=ASC'), 'attendees')).toEqual([evil, ada, alan, charles]);
    expect(ids(await of('orderby=date&order=desc&offset=1&per_page=2'), 'attendees')).toEqual([
      alan,
      charles,
    ]);
    const everyEvent = await api.get(
      t(`/attendees?include_post=${shown},${hidden}&post_status=publish`),
      asEditor,
    );
    expect(everyEvent.body.total).toBe(4);
  });

  it("keeps the rules of who may list: the event's author with post_id, editors for the rest", async () => {
    const own = await event('Own event', 'publish', tokens.author);
    const seat = await ticket({ post_id: own, title: 'Own seat' });
    await register(seat.id, 'Katherine Johnson');
    const res = await api.get(t(`/attendees?post_id=${own}&search=johnson`), { token: tokens.author });
    expect(res.body.total).toBe(1);
    expect((await api.get(t(`/attendees?include_post=${own}`), { token: tokens.author })).status).toBe(403);
    expect((await api.get(t(`/attendees?post_id=${own}`), { token: tokens.other })).status).toBe(403);
  });
});

describe('GET /attendees?format=csv', () => {
  const csvRows = (text: string) =>
    parse(text.replace(/^\uFEFF/, ''), { relax_column_count: false }) as string[][];

  it('answers every matching attendee as text/csv with a header row, not paged', async () => {
    const res = await api.get(t(`/attendees?post_id=${shown}&format=csv&per_page=1`), asEditor);

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="attendees-event-${shown}.csv"`,
    );
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('x-cal-total')).toBe('4');
    const text = res.body as string;
    expect(text).toContain('\r\n');
    // A byte order mark (spreadsheets then read UTF-8); text() decoders drop it, the bytes keep it.
    const raw = await fetch(t(`/attendees?post_id=${shown}&format=csv`), {
      headers: { authorization: `Bearer ${tokens.editor}` },
    });
    expect([...new Uint8Array(await raw.arrayBuffer()).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = csvRows(text);
    expect(rows[0]!.slice(0, 4)).toEqual(['Attendee ID', 'Name', 'E-mail', 'Status']);
    expect(rows[0]).toContain('Diet');
    expect(rows).toHaveLength(5);
    expect(rows.map((r) => r[1])).toEqual([
      'Name',
      'Ada Lovelace',
      'Charles Babbage',
      'Alan Turing',
      `'=HYPERLINK("http://evil.example")`,
    ]);
    expect(rows[1]![2]).toBe('ada.lovelace@example.com');
    expect(rows[1]![rows[0]!.indexOf('Diet')]).toBe('vegan, halal');
    expect(rows[3]![9]).toBe('yes');
  });

  it('takes the same filters and answers to Accept: text/csv; format=json keeps JSON', async () => {
    const res = await api.get(t(`/attendees?post_id=${shown}&search=turing`), {
      ...asEditor,
      headers: { accept: 'text/csv' },
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csvRows(res.body as string).map((r) => r[1])).toEqual(['Name', 'Alan Turing']);
    const json = await api.get(t(`/attendees?post_id=${shown}&format=json`), {
      ...asEditor,
      headers: { accept: 'text/csv' },
    });
    expect(json.body.total).toBe(4);
  });

  it('is for those who manage the attendees only', async () => {
    expect((await api.get(t(`/attendees?post_id=${shown}&format=csv`))).status).toBe(401);
    expect((await api.get(t(`/attendees?post_id=${shown}&format=csv`), { token: tokens.other })).status).toBe(
      403,
    );
    expect((await api.get(t(`/attendees?post_id=${shown}&format=xml`), asEditor)).status).toBe(400);
  });
});
