import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAgainstDoc } from '../support/doc-check';
import { useStack } from '../support/use-stack';

/**
 * The iCalendar routes (GET /events/ical, GET /events/{id}/ical): every feed is parsed by an independent
 * parser (Mozilla's ical.js) and compared with what the JSON API says about the same events: UIDs, the
 * instants of DTSTART / DTEND (across daylight-saving changes, all-day events as DATE values with an
 * exclusive end), texts, location, categories, organizer. Then folding and escaping on the raw bytes,
 * conditional GETs, the filters of GET /events, visibility and the errors.
 */
const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

// ---------------------------------------------------------------------------------------------------
// HTTP and parsing

interface Feed {
  status: number;
  headers: Headers;
  /** Raw bytes of the body. */
  bytes: Buffer;
  text: string;
  /** The JSON body of an error. */
  json?: any;
}

async function fetchIcal(path: string, o: { token?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...o.headers };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  const res = await fetch(`${api.base}${path}`, { headers, redirect: 'manual' });
  const bytes = Buffer.from(await res.arrayBuffer());
  const text = bytes.toString('utf8');
  const isJson = (res.headers.get('content-type') ?? '').startsWith('application/json');
  const reply: Feed = { status: res.status, headers: res.headers, bytes, text };
  if (isJson) reply.json = JSON.parse(text);
  await checkAgainstDoc(api.base, 'GET', path, {
    status: res.status,
    headers: res.headers,
    body: isJson ? reply.json : text,
  });
  return reply;
}

/** GET that must answer 200 text/calendar. */
async function calendar(path: string, o: { token?: string; headers?: Record<string, string> } = {}) {
  const res = await fetchIcal(path, o);
  expect(res.status, res.text.slice(0, 500)).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
  return res;
}

interface Parsed {
  root: ICAL.Component;
  events: ICAL.Component[];
  byId: Map<number, ICAL.Component>;
}

const HOST = new URL(process.env.SITE_URL!).hostname;
const UID = new RegExp(`^event-(\\d+)@${HOST.replace(/\./g, '\\.')}$`);

function parse(text: string): Parsed {
  const root = new ICAL.Component(ICAL.parse(text));
  // The feed's own VTIMEZONEs define its TZIDs (registered before any time is read).
  for (const tz of root.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
  const events = root.getAllSubcomponents('vevent');
  const byId = new Map<number, ICAL.Component>();
  for (const ve of events) {
    const uid = String(ve.getFirstPropertyValue('uid'));
    const m = UID.exec(uid);
    expect(m, `UID ${uid}`).not.toBeNull();
    byId.set(Number(m![1]), ve);
  }
  return { root, events, byId };
}

const idsOf = (p: Parsed) => [...p.byId.keys()].sort((a, b) => a - b);

// ---------------------------------------------------------------------------------------------------
// Comparison with the JSON API

const utcMillis = (wall: string) => Date.parse(`${wall.replace(' ', 'T')}Z`);
const instant = (t: ICAL.Time) => t.toUnixTime() * 1000;
const value = (ve: ICAL.Component, name: string) => ve.getFirstPropertyValue(name);
const text = (ve: ICAL.Component, name: string) => {
  const v = value(ve, name);
  return v === null ? undefined : String(v);
};

/** The plain text rule docs/api-guide.md states, for descriptions without markup: entities decoded, trimmed. */
const plainOfUntagged = (html: string) =>
  html
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();

/** LOCATION as documented: venue name, address, city, "state/province zip", country, joined by ", ". */
function locationOf(venue: any): string | undefined {
  if (!venue || Array.isArray(venue)) return undefined;
  const region = [venue.stateprovince, venue.zip].filter(Boolean).join(' ');
  return [venue.venue, venue.address, venue.city, region, venue.country].filter(Boolean).join(', ');
}

/** Every VEVENT property that the JSON API determines, checked against the event's JSON. */
function expectSameEvent(ve: ICAL.Component, json: any) {
  const ev = new ICAL.Event(ve);
  expect(ev.uid).toBe(`event-${json.id}@${HOST}`);
  expect(ev.summary).toBe(json.title);
  expect(text(ve, 'url')).toBe(json.url);
  expect(value(ve, 'dtstamp')).not.toBeNull();
  const lastModified = value(ve, 'last-modified') as ICAL.Time;
  expect(instant(lastModified)).toBe(utcMillis(json.modified_utc));
  expect(Number(value(ve, 'sequence'))).toBeGreaterThan(0);
  expect(text(ve, 'status')).toBe(
    json.status === 'publish' ? 'CONFIRMED' : json.status === 'trash' ? 'CANCELLED' : 'TENTATIVE',
  );

  if (json.all_day) {
    expect(ev.startDate.isDate).toBe(true);
    expect(ev.endDate.isDate).toBe(true);
    expect(ev.startDate.toString()).toBe(json.start_date.slice(0, 10));
    const dayAfterEnd = DateTime.fromISO(json.end_date.slice(0, 10)).plus({ days: 1 }).toISODate();
    expect(ev.endDate.toString()).toBe(dayAfterEnd);
  } else {
    expect(ev.startDate.isDate).toBe(false);
    expect(instant(ev.startDate)).toBe(utcMillis(json.utc_start_date));
    expect(instant(ev.endDate)).toBe(utcMillis(json.utc_end_date));
  }

  const location = locationOf(json.venue);
  expect(text(ve, 'location')).toBe(location);
  const geo = value(ve, 'geo') as number[] | null;
  if (json.venue?.geo_lat !== undefined) expect(geo).toEqual([json.venue.geo_lat, json.venue.geo_lng]);
  else expect(geo).toBeNull();

  const categories = ve.getAllProperties('categories').flatMap((p) => p.getValues().map(String));
  expect(categories).toEqual(json.categories.map((c: any) => c.name));

  const withEmail = json.organizer.find((o: any) => o.email);
  const organizer = ve.getFirstProperty('organizer');
  if (withEmail) {
    expect(organizer?.getFirstValue()).toBe(`mailto:${withEmail.email}`);
    expect(organizer?.getParameter('cn')).toBe(withEmail.organizer);
  } else expect(organizer).toBeNull();
}

/** The JSON list with the same filters (all pages of 50). */
async function jsonIds(query: string, token?: string): Promise<number[]> {
  return (await jsonOrder(query, token)).sort((a, b) => a - b);
}

/** IDs of the JSON list with the same filters, in its order (all pages of 50). */
async function jsonOrder(query: string, token?: string): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const res = await api.get(`/events?${query}&per_page=50&page=${page}`, { token });
    if (res.status === 404 && page > 1) break;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    ids.push(...res.body.events.map((e: any) => e.id));
    if (page >= res.body.total_pages) break;
  }
  return ids;
}

// ---------------------------------------------------------------------------------------------------
// Data

const WINDOW = 'start_date=2027-01-01&end_date=2027-12-31';

const LONG_HTML =
  '<p>Grüße aus Köln, Zürich; and a backslash \\ in the middle, too.</p>' +
  '<p>Second paragraph: naïve café — “quoted” &amp; more; semicolons; commas, commas, and emoji 🎷🎺 that must ' +
  'never be split across a folded line. ' +
  'Ein langer Satz mit Umlauten äöü ÄÖÜ ß und Akzenten éèê, der weit über fünfundsiebzig Oktette hinausgeht. '.repeat(
    4,
  ) +
  '</p><ul><li>first item</li><li>second item, with a comma</li></ul><p>Last line<br>after a break</p>';
const LONG_TEXT =
  'Grüße aus Köln, Zürich; and a backslash \\ in the middle, too.\n\n' +
  'Second paragraph: naïve café — “quoted” & more; semicolons; commas, commas, and emoji 🎷🎺 that must ' +
  'never be split across a folded line. ' +
  'Ein langer Satz mit Umlauten äöü ÄÖÜ ß und Akzenten éèê, der weit über fünfundsiebzig Oktette hinausgeht. '
    .repeat(4)
    .trimEnd() +
  '\n\n- first item\n- second item, with a comma\n\nLast line\nafter a break';

const ev: Record<string, any> = {};
const ref: Record<string, number> = {};

async function post(collection: string, body: Record<string, unknown>) {
  const res = await api.post(`/${collection}`, body, { token: editor });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

beforeAll(async () => {
  ref.music = (await post('categories', { name: 'Music' })).id;
  ref.jazz = (await post('categories', { name: 'Jazz, Blues; Soul', parent: ref.music })).id;
  ref.talks = (await post('categories', { name: 'Talks' })).id;
  ref.outdoor = (await post('tags', { name: 'Outdoor' })).id;
  ref.hall = (
    await post('venues', {
      venue: 'Blue Note Hall',
      address: '131 W 3rd St',
      city: 'New York',
      state: 'NY',
      zip: '10012',
      country: 'United States',
      geo_lat: 40.7308,
      geo_lng: -73.9995,
    })
  ).id;
  ref.loft = (await post('venues', { venue: 'Pop-up Loft', city: 'Berlin', country: 'Germany' })).id;
  ref.society = (await post('organizers', { organizer: 'Jazz Society', email: 'info@jazz.example.com' })).id;
  ref.club = (await post('organizers', { organizer: 'Night Club' })).id;

  ev.nyDst = await post('events', {
    title: 'New York night across the spring change',
    start_date: '2027-03-13 22:00',
    end_date: '2027-03-14 10:00',
    timezone: 'America/New_York',
    categories: [ref.jazz],
    tags: [ref.outdoor],
    venue: ref.hall,
    organizer: [ref.society],
    description: LONG_HTML,
  });
  ev.berlinDst = await post('events', {
    title: 'Berlin night across the autumn change',
    start_date: '2027-10-30 20:00',
    end_date: '2027-10-31 12:00',
    timezone: 'Europe/Berlin',
    categories: [ref.talks],
    venue: ref.loft,
    organizer: [ref.club],
    description: 'Plain words &amp; an ampersand',
  });
  ev.allDay = await post('events', {
    title: 'Three-day festival',
    start_date: '2027-05-01',
    end_date: '2027-05-03',
    all_day: true,
    timezone: 'Europe/Berlin',
    categories: [ref.music],
    featured: true,
    organizer: [ref.club, ref.society],
  });
  ev.offset = await post('events', {
    title: 'Fixed offset meetup',
    start_date: '2027-06-10 09:30',
    end_date: '2027-06-10 11:00',
    timezone: 'UTC+5',
    tags: [ref.outdoor],
  });
  ev.siteZone = await post('events', {
    title: 'Site zone lecture',
    start_date: '2027-07-01 18:00',
    end_date: '2027-07-01 19:30',
    categories: [ref.talks],
    venue: ref.hall,
  });
  ev.draft = await post('events', {
    title: 'Secret draft',
    start_date: '2027-08-01 10:00',
    end_date: '2027-08-01 11:00',
    status: 'draft',
  });
});

const published = () => [ev.nyDst, ev.berlinDst, ev.allDay, ev.offset, ev.siteZone];
const json = async (id: number, token?: string) => (await api.get(`/events/${id}`, { token })).body;

// ---------------------------------------------------------------------------------------------------

describe('GET /events/ical', () => {
  it('holds every published event of the window, each as the JSON API shows it', async () => {
    const res = await calendar(`/events/ical?${WINDOW}`);
    const feed = parse(res.text);

    expect(idsOf(feed)).toEqual(
      published()
        .map((e) => e.id)
        .sort((a, b) => a - b),
    );
    expect(idsOf(feed)).toEqual(await jsonIds(WINDOW));
    for (const [id, ve] of feed.byId) expectSameEvent(ve, await json(id));
  });

  it('carries the calendar properties and one VTIMEZONE for every TZID it uses', async () => {
    const res = await calendar(`/events/ical?${WINDOW}`);
    const feed = parse(res.text);

    expect(text(feed.root, 'version')).toBe('2.0');
    expect(text(feed.root, 'prodid')).toMatch(/^-\/\/.+\/\/.+\/\/EN$/);
    expect(text(feed.root, 'calscale')).toBe('GREGORIAN');
    expect(text(feed.root, 'method')).toBe('PUBLISH');
    expect(text(feed.root, 'x-wr-calname')).toContain(HOST);
    expect(text(feed.root, 'x-wr-timezone')).toBe('UTC');
    expect(res.text).toContain('\r\nREFRESH-INTERVAL;VALUE=DURATION:PT1H\r\n');
    expect(res.text).toContain('\r\nX-PUBLISHED-TTL:PT1H\r\n');

    const used = new Set<string>();
    for (const ve of feed.events)
      for (const name of ['dtstart', 'dtend']) {
        const tzid = ve.getFirstProperty(name)!.getParameter('tzid');
        if (tzid) used.add(String(tzid));
      }
    const defined = feed.root.getAllSubcomponents('vtimezone').map((tz) => String(value(tz, 'tzid')));
    expect(used).toEqual(new Set(['America/New_York', 'Europe/Berlin']));
    expect(new Set(defined)).toEqual(used);
    expect(defined).toHaveLength(used.size);
  });

  it('keeps wall time and zone across daylight-saving changes (New York, Berlin)', async () => {
    const feed = parse((await calendar(`/events/ical?${WINDOW}`)).text);

    const ny = new ICAL.Event(feed.byId.get(ev.nyDst.id)!);
    expect(ny.startDate.toString()).toBe('2027-03-13T22:00:00');
    expect(ny.startDate.zone?.tzid).toBe('America/New_York');
    expect(new Date(instant(ny.startDate)).toISOString()).toBe('2027-03-14T03:00:00.000Z'); // EST
    expect(new Date(instant(ny.endDate)).toISOString()).toBe('2027-03-14T14:00:00.000Z'); // EDT
    const berlin = new ICAL.Event(feed.byId.get(ev.berlinDst.id)!);
    expect(berlin.startDate.toString()).toBe('2027-10-30T20:00:00');
    expect(new Date(instant(berlin.startDate)).toISOString()).toBe('2027-10-30T18:00:00.000Z'); // CEST
    expect(new Date(instant(berlin.endDate)).toISOString()).toBe('2027-10-31T11:00:00.000Z'); // CET
  });

  it('writes UTC for UTC±N zones and the UTC site zone, and whole days as DATE with an exclusive end', async () => {
    const res = await calendar(`/events/ical?${WINDOW}`);
    const feed = parse(res.text);

    const offset = feed.byId.get(ev.offset.id)!;
    expect(offset.getFirstProperty('dtstart')!.getParameter('tzid')).toBeUndefined();
    expect(res.text).toContain('\r\nDTSTART:20270610T043000Z\r\n');
    expect(res.text).toContain('\r\nDTSTART:20270701T180000Z\r\n');
    const allDay = new ICAL.Event(feed.byId.get(ev.allDay.id)!);
    expect(allDay.startDate.toString()).toBe('2027-05-01');
    expect(allDay.endDate.toString()).toBe('2027-05-04');
    expect(res.text).toContain('\r\nDTSTART;VALUE=DATE:20270501\r\nDTEND;VALUE=DATE:20270504\r\n');
  });

  it('gives the description as plain text, escaped and folded at 75 octets without splitting characters', async () => {
    const res = await calendar(`/events/ical?${WINDOW}`);
    const feed = parse(res.text);

    expect(text(feed.byId.get(ev.nyDst.id)!, 'description')).toBe(LONG_TEXT);
    expect(text(feed.byId.get(ev.berlinDst.id)!, 'description')).toBe(
      plainOfUntagged((await json(ev.berlinDst.id)).description),
    );
    expect(value(feed.byId.get(ev.allDay.id)!, 'description')).toBeNull();

    // On the raw bytes: CRLF only, no physical line over 75 octets, every line valid UTF-8 on its own.
    expect(res.text.endsWith('\r\nEND:VCALENDAR\r\n')).toBe(true);
    expect(/[^\r]\n|\r[^\n]/.test(res.text)).toBe(false);
    const lines: Buffer[] = [];
    for (let from = 0; from < res.bytes.length;) {
      const at = res.bytes.indexOf('\r\n', from);
      const end = at === -1 ? res.bytes.length : at;
      lines.push(res.bytes.subarray(from, end));
      from = end + 2;
    }
    const decoder = new TextDecoder('utf-8', { fatal: true });
    for (const line of lines) {
      expect(line.length).toBeLessThanOrEqual(75);
      expect(() => decoder.decode(line)).not.toThrow();
    }
    const folded = lines.filter((l) => l[0] === 0x20);
    expect(folded.length).toBeGreaterThan(5);

    // Escaping as RFC 5545 §3.3.11 writes it, on the unfolded line.
    const unfolded = res.text.replace(/\r\n /g, '');
    const description = unfolded.split('\r\n').find((l) => l.startsWith('DESCRIPTION:Grüße'))!;
    expect(description).toContain('Köln\\, Zürich\\; and a backslash \\\\ in the middle');
    expect(description).toContain('too.\\n\\nSecond paragraph');
    expect(unfolded).toContain('\r\nCATEGORIES:Jazz\\, Blues\\; Soul\r\n');
  });

  it('gives LOCATION from the venue, GEO from its coordinates, ORGANIZER only with an e-mail', async () => {
    const feed = parse((await calendar(`/events/ical?${WINDOW}`)).text);

    const ny = feed.byId.get(ev.nyDst.id)!;
    expect(text(ny, 'location')).toBe('Blue Note Hall, 131 W 3rd St, New York, NY 10012, United States');
    expect(value(ny, 'geo')).toEqual([40.7308, -73.9995]);
    expect(ny.getFirstProperty('organizer')!.getFirstValue()).toBe('mailto:info@jazz.example.com');
    expect(ny.getFirstProperty('organizer')!.getParameter('cn')).toBe('Jazz Society');
    expect(ny.getFirstProperty('categories')!.getValues()).toEqual(['Jazz, Blues; Soul']);

    const berlin = feed.byId.get(ev.berlinDst.id)!;
    expect(text(berlin, 'location')).toBe('Pop-up Loft, Berlin, Germany');
    expect(value(berlin, 'geo')).toBeNull();
    expect(berlin.getFirstProperty('organizer')).toBeNull(); // Night Club has no e-mail
    // Several organizers: the one with an e-mail.
    expect(feed.byId.get(ev.allDay.id)!.getFirstProperty('organizer')!.getFirstValue()).toBe(
      'mailto:info@jazz.example.com',
    );
  });

  it.each([
    ['categories=music', 'a category with its children'],
    ['categories=talks', 'another category'],
    [`tags=${'outdoor'}`, 'a tag'],
    ['featured=true', 'featured'],
    ['featured=false', 'not featured'],
    ['search=night', 'a search'],
  ])('narrows like GET /events: %s (%s)', async (filter) => {
    const feed = parse((await calendar(`/events/ical?${WINDOW}&${filter}`)).text);

    const expected = await jsonIds(`${WINDOW}&${filter}`);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(published().length);
    expect(idsOf(feed)).toEqual(expected);
  });

  it('narrows by venue and organizer like GET /events', async () => {
    for (const filter of [
      `venue=${ref.hall}`,
      `organizer=${ref.club}`,
      `venue=${ref.loft}&organizer=${ref.club}`,
    ]) {
      const feed = parse((await calendar(`/events/ical?${WINDOW}&${filter}`)).text);
      const expected = await jsonIds(`${WINDOW}&${filter}`);
      expect(expected.length, filter).toBeGreaterThan(0);
      expect(idsOf(feed), filter).toEqual(expected);
    }
  });

  it('leaves drafts out for anonymous callers and shows them to editors as TENTATIVE', async () => {
    const anonymous = parse((await calendar(`/events/ical?${WINDOW}`)).text);
    expect(anonymous.byId.has(ev.draft.id)).toBe(false);

    const edited = parse((await calendar(`/events/ical?${WINDOW}`, { token: editor })).text);
    expect(idsOf(edited)).toEqual(await jsonIds(WINDOW, editor));
    expect(text(edited.byId.get(ev.draft.id)!, 'status')).toBe('TENTATIVE');
    expectSameEvent(edited.byId.get(ev.draft.id)!, await json(ev.draft.id, editor));

    const drafts = parse((await calendar(`/events/ical?${WINDOW}&status=draft`, { token: editor })).text);
    expect(idsOf(drafts)).toEqual([ev.draft.id]);
  });

  it('answers bad filters with the 400 envelope of the JSON list', async () => {
    for (const filter of [
      'start_date=not-a-date',
      'categories=no-such-category',
      'venue=999999',
      'featured=maybe',
      'status=draft',
      'status=nonsense',
    ]) {
      const feed = await fetchIcal(`/events/ical?${filter}`);
      const list = await api.get(`/events?${filter}`);
      expect(list.status, filter).toBe(400);
      expect(feed.status, filter).toBe(400);
      expect(feed.headers.get('content-type')).toMatch(/^application\/json/);
      expect(feed.json).toEqual(list.body);
    }
  });

  it('takes limit: the earliest events, 400 below 1', async () => {
    const feed = parse((await calendar(`/events/ical?${WINDOW}&limit=2`)).text);
    expect(idsOf(feed)).toEqual([ev.nyDst.id, ev.allDay.id].sort((a, b) => a - b));

    for (const limit of ['0', '-3', 'many']) {
      const res = await fetchIcal(`/events/ical?limit=${limit}`);
      expect(res.status, limit).toBe(400);
      expect(res.json).toMatchObject({ code: 'rest_invalid_param', data: { status: 400 } });
      expect(res.json.data.params).toHaveProperty('limit');
    }
  });

  describe('with the deployment cap at 3 (ICAL_MAX_EVENTS)', () => {
    beforeAll(() => {
      process.env.ICAL_MAX_EVENTS = '3';
    });
    afterAll(() => {
      delete process.env.ICAL_MAX_EVENTS;
    });

    it('caps the feed, and a larger limit, at the deployment maximum', async () => {
      const capped = parse((await calendar(`/events/ical?${WINDOW}`)).text);
      const asked = parse((await calendar(`/events/ical?${WINDOW}&limit=500`)).text);
      const first3 = (await jsonIds(WINDOW)).length;

      expect(first3).toBe(5);
      expect(capped.events).toHaveLength(3);
      expect(idsOf(asked)).toEqual(idsOf(capped));
      // The earliest three, as GET /events orders them.
      const list = await api.get(`/events?${WINDOW}&per_page=3`);
      expect(idsOf(capped)).toEqual(
        list.body.events.map((e: any) => e.id).sort((a: number, b: number) => a - b),
      );
    });
  });
});

describe('a window with more events than one slice', () => {
  // 8 events a day over 30 days of 2029: at midnight, one second later, during the day, at 23:59:59, all
  // day, and late in New York; every third one a draft, every fifth in Talks. Windows with more than
  // 100 events are read in slices of days: the slices must neither lose nor repeat any event.
  const SLICED = 'start_date=2029-01-01&end_date=2029-01-31';
  const times = ['00:00:00', '00:00:01', '06:30:00', '12:00:00', '18:45:00', '23:59:59'];

  beforeAll(async () => {
    const bodies: Array<Record<string, unknown>> = [];
    for (let day = 1; day <= 30; day++) {
      const date = `2029-01-${String(day).padStart(2, '0')}`;
      for (const time of times)
        bodies.push({
          title: `Sliced ${date} ${time}`,
          start_date: `${date} ${time}`,
          end_date: `${date} ${time}`,
        });
      bodies.push({ title: `Sliced ${date} all day`, start_date: date, end_date: date, all_day: true });
      bodies.push({
        title: `Sliced ${date} New York`,
        start_date: `${date} 23:30`,
        end_date: `${date} 23:45`,
        timezone: 'America/New_York',
      });
    }
    for (let i = 0; i < bodies.length; i += 12)
      await Promise.all(
        bodies.slice(i, i + 12).map((body, j) =>
          post('events', {
            ...body,
            tags: ['sliced'],
            ...((i + j) % 3 === 0 ? { status: 'draft' } : {}),
            ...((i + j) % 5 === 0 ? { categories: [ref.talks] } : {}),
          }),
        ),
      );
  });

  it.each([
    [SLICED, ''],
    [SLICED, 'editor'],
    ['start_date=2029-01-03 06:30&end_date=2029-01-27 18:45&strict_dates=true', ''],
    ['start_date=2029-01-03 06:30&end_date=2029-01-27 18:45&strict_dates=true', 'editor'],
    [`${SLICED}&starts_before=2029-01-25&starts_after=2029-01-02`, 'editor'],
    [`${SLICED}&ends_before=2029-01-20&search=sliced`, 'editor'],
    [`${SLICED}&categories=talks&tags=sliced`, 'editor'],
  ])('holds what GET /events lists, in its order: %s (%s)', async (query, who) => {
    const token = who === 'editor' ? editor : undefined;
    const feed = parse((await calendar(`/events/ical?${query}&tags=sliced`, { token })).text);
    const expected = await jsonOrder(`${query}&tags=sliced`, token);

    expect(feed.events.map((ve) => Number(UID.exec(String(value(ve, 'uid')))![1]))).toEqual(expected);
  });

  it('stops at limit with the earliest events', async () => {
    const feed = parse(
      (await calendar(`/events/ical?${SLICED}&tags=sliced&limit=130`, { token: editor })).text,
    );
    const expected = await jsonOrder(`${SLICED}&tags=sliced`, editor);

    expect(expected.length).toBeGreaterThan(200);
    expect(feed.events.map((ve) => Number(UID.exec(String(value(ve, 'uid')))![1]))).toEqual(
      expected.slice(0, 130),
    );
  });
});

describe('the default window', () => {
  it('runs from 30 days ago to 365 days ahead', async () => {
    const at = (days: number) => DateTime.utc().plus({ days }).toFormat('yyyy-MM-dd HH:mm');
    const made: Record<string, number> = {};
    for (const [name, days] of [
      ['before', -40],
      ['recent', -10],
      ['soon', 20],
      ['next year', 300],
      ['too far', 400],
    ] as const) {
      const e = await post('events', {
        title: `Window ${name}`,
        start_date: at(days),
        end_date: at(days + 0.05),
        tags: ['window-probe'],
      });
      made[name] = e.id;
    }

    const feed = parse((await calendar('/events/ical?tags=window-probe')).text);

    expect(idsOf(feed)).toEqual([made.recent!, made.soon!, made['next year']!].sort((a, b) => a - b));
    const day = (days: number) => DateTime.utc().plus({ days }).toFormat('yyyy-MM-dd');
    expect(idsOf(feed)).toEqual(
      await jsonIds(`tags=window-probe&start_date=${day(-30)}&end_date=${day(365)}`),
    );
  });
});

describe('GET /events/{id}/ical', () => {
  it('answers one event as GET /events/{id} shows it', async () => {
    const res = await calendar(`/events/${ev.nyDst.id}/ical`);
    const cal = parse(res.text);

    expect(cal.events).toHaveLength(1);
    expectSameEvent(cal.events[0]!, await json(ev.nyDst.id));
    expect(text(cal.root, 'method')).toBe('PUBLISH');
    expect(cal.root.getAllSubcomponents('vtimezone').map((tz) => value(tz, 'tzid'))).toEqual([
      'America/New_York',
    ]);
  });

  it('refuses a draft to anonymous callers with the 403 of GET /events/{id}, and shows it to editors', async () => {
    const res = await fetchIcal(`/events/${ev.draft.id}/ical`);
    const plain = await api.get(`/events/${ev.draft.id}`);

    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.json).toEqual(plain.body);
    expect(res.json).toMatchObject({ code: 'event-not-accessible', data: { status: 403 } });

    const edited = parse((await calendar(`/events/${ev.draft.id}/ical`, { token: editor })).text);
    expect(text(edited.events[0]!, 'status')).toBe('TENTATIVE');
  });

  it('answers 404 for an unknown ID and for the ID of a venue', async () => {
    for (const id of [987654, ref.hall!]) {
      const res = await fetchIcal(`/events/${id}/ical`);
      expect(res.status).toBe(404);
      expect(res.json).toMatchObject({ code: 'rest-event-not-found', data: { status: 404 } });
    }
  });

  it('marks a trashed event CANCELLED for editors (anonymous callers get the 403 of the JSON route)', async () => {
    const e = await post('events', {
      title: 'Cancelled gig',
      start_date: '2027-09-01 20:00',
      end_date: '2027-09-01 22:00',
    });
    expect((await api.del(`/events/${e.id}`, { token: editor })).status).toBe(200);

    const edited = parse((await calendar(`/events/${e.id}/ical`, { token: editor })).text);
    expect(text(edited.events[0]!, 'status')).toBe('CANCELLED');
    const anonymous = await fetchIcal(`/events/${e.id}/ical`);
    expect(anonymous.status).toBe((await api.get(`/events/${e.id}`)).status);
  });
});

describe('conditional GETs', () => {
  const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

  it.each([`/events/ical?${WINDOW}`, 'single'])(
    '%s: 304 on If-None-Match and If-Modified-Since',
    async (which) => {
      const path = which === 'single' ? `/events/${ev.siteZone.id}/ical` : which;
      const first = await calendar(path);
      const etag = first.headers.get('etag')!;
      const lastModified = first.headers.get('last-modified')!;
      expect(etag).toMatch(/^W\/"[\w-]+"$/);
      expect(first.headers.get('cache-control')).toBe('public, max-age=300');
      expect(first.headers.get('vary')).toBe('Authorization');

      // Last-Modified is the newest modified_utc of what is shown (events, their venues and organizers).
      const shown = await Promise.all(idsOf(parse(first.text)).map((id) => json(id)));
      const newest = shown
        .flatMap((e) => [
          e.modified_utc,
          ...[e.venue].flat().map((v: any) => v?.modified_utc),
          ...e.organizer.map((o: any) => o.modified_utc),
        ])
        .filter(Boolean)
        .sort()
        .at(-1);
      expect(Date.parse(lastModified)).toBe(utcMillis(newest));

      // The same answer again: same tag.
      expect((await calendar(path)).headers.get('etag')).toBe(etag);

      for (const headers of <Array<Record<string, string>>>[
        { 'if-none-match': etag },
        { 'if-none-match': `"other", ${etag}` },
        { 'if-none-match': etag.replace(/^W\//, '') },
        { 'if-none-match': '*' },
        { 'if-modified-since': lastModified },
        { 'if-modified-since': new Date(Date.parse(lastModified) + 60_000).toUTCString() },
      ]) {
        const res = await fetchIcal(path, { headers });
        expect(res.status, JSON.stringify(headers)).toBe(304);
        expect(res.bytes.length).toBe(0);
        expect(res.headers.get('etag')).toBe(etag);
        expect(res.headers.get('content-type')).toBeNull();
      }
      for (const headers of <Array<Record<string, string>>>[
        { 'if-none-match': '"something-else"' },
        { 'if-modified-since': new Date(Date.parse(lastModified) - 1000).toUTCString() },
        // If-None-Match wins over If-Modified-Since (RFC 9110 §13.2.2).
        { 'if-none-match': '"something-else"', 'if-modified-since': lastModified },
        { 'if-modified-since': 'not a date' },
      ]) {
        const res = await fetchIcal(path, { headers });
        expect(res.status, JSON.stringify(headers)).toBe(200);
        expect(res.text.startsWith('BEGIN:VCALENDAR')).toBe(true);
      }
    },
  );

  it('changes the tag, Last-Modified and SEQUENCE when an event changes, and the tag when its venue does', async () => {
    const e = await post('events', {
      title: 'Changing event',
      start_date: '2027-11-05 19:00',
      end_date: '2027-11-05 21:00',
      venue: ref.loft,
      tags: ['changing'],
    });
    const path = '/events/ical?tags=changing&start_date=2027-11-01&end_date=2027-11-30';
    const before = await calendar(path);
    const sequence = Number(value(parse(before.text).events[0]!, 'sequence'));

    await sleep(1100); // modified_utc has whole seconds
    expect((await api.patch(`/events/${e.id}`, { title: 'Changed event' }, { token: editor })).status).toBe(
      200,
    );

    const stale = await fetchIcal(path, { headers: { 'if-none-match': before.headers.get('etag')! } });
    expect(stale.status).toBe(200);
    const sinceBefore = await fetchIcal(path, {
      headers: { 'if-modified-since': before.headers.get('last-modified')! },
    });
    expect(sinceBefore.status).toBe(200);
    const after = parse(stale.text).events[0]!;
    expect(text(after, 'summary')).toBe('Changed event');
    expect(Number(value(after, 'sequence'))).toBeGreaterThan(sequence);
    expect(Date.parse(stale.headers.get('last-modified')!)).toBeGreaterThan(
      Date.parse(before.headers.get('last-modified')!),
    );

    // A venue rename changes LOCATION, so the tag changes although the event did not.
    const renamed = await api.patch(`/venues/${ref.loft}`, { venue: 'Pop-up Loft (new)' }, { token: editor });
    expect(renamed.status).toBe(200);
    const moved = await fetchIcal(path, { headers: { 'if-none-match': stale.headers.get('etag')! } });
    expect(moved.status).toBe(200);
    expect(text(parse(moved.text).events[0]!, 'location')).toBe('Pop-up Loft (new), Berlin, Germany');
  });

  it('gives different tags to different queries and callers, and private caching to token holders', async () => {
    const a = await calendar(`/events/ical?${WINDOW}`);
    const b = await calendar(`/events/ical?${WINDOW}&featured=false`);
    const c = await calendar(`/events/ical?${WINDOW}`, { token: editor });

    expect(new Set([a, b, c].map((r) => r.headers.get('etag'))).size).toBe(3);
    expect(c.headers.get('cache-control')).toBe('private, no-cache');
  });

  it('sends no Last-Modified for an empty feed, and still a tag', async () => {
    const res = await calendar('/events/ical?search=nothing-matches-this');

    expect(parse(res.text).events).toHaveLength(0);
    expect(res.headers.get('last-modified')).toBeNull();
    const again = await fetchIcal('/events/ical?search=nothing-matches-this', {
      headers: { 'if-none-match': res.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
  });
});

describe('the contract', () => {
  it('documents both routes in /doc as text/calendar with their 304', async () => {
    const doc = (await api.get('/doc')).body;
    for (const path of ['/events/ical', '/events/{id}/ical']) {
      const op = doc.paths[path].get;
      expect(Object.keys(op.responses[200].content)).toEqual(['text/calendar']);
      expect(op.responses[304].content).toBeUndefined();
      expect(op.responses[200].headers).toHaveProperty('ETag');
      expect(op.responses[200].headers['Last-Modified'].required).toBe(false);
    }
    const params = doc.paths['/events/ical'].get.parameters.map((p: any) => p.name);
    expect(params).toEqual(
      expect.arrayContaining([
        'start_date',
        'categories',
        'tags',
        'venue',
        'organizer',
        'featured',
        'search',
        'status',
        'limit',
      ]),
    );
    expect(params).not.toContain('page');
  });

  it('lists both routes in the namespace index', async () => {
    const index = (await api.get('/')).body;
    expect(Object.keys(index.routes)).toEqual(
      expect.arrayContaining(['/cal/events/v1/events/ical', '/cal/events/v1/events/(?P<id>\\d+)/ical']),
    );
  });
});
