import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { DateTime } from 'luxon';
import { CalApiError, type Schemas } from '../client/src';
import { type ApiClient, apiClient, pool } from '../import-export/src';
import { adminToken } from '../local/token';
import { seedSeries } from './seed-series';

/**
 * `npm run seed`: loads a sample calendar into a RUNNING local stack (`npm start`) over HTTP.
 *
 *   npm run seed                                   # 300 events into http://localhost:3000/cal/events/v1
 *   npm run seed -- --events 1000 --seed 7         # more events, another (still deterministic) draw
 *   npm run seed -- --base http://127.0.0.1:4000/cal/events/v1    (or CAL_BASE_URL=...)
 *   npm run seed -- --anchor 2025-01-01            # dates relative to this day instead of today (UTC)
 *
 * It signs its own administrator token with the local secret (.data/local-jwt-secret, the one
 * `npm start` uses; CAL_DATA_DIR moves it), then creates categories (Music > Jazz / Rock / Classical,
 * Arts > Theatre / Exhibitions, Workshops, Family, Food & Drink), tags, venues, organizers and events,
 * 8 requests at a time (--concurrency).
 *
 * Deterministic: a seeded PRNG (--seed, default 42) draws everything, and dates are laid out relative
 * to the anchor day (default: today in UTC), so two runs on the same day send the same bodies.
 *
 * Re-runnable: a category or tag that exists already (400 term_exists) is reused through the
 * `data.term_id` of the error, and venues / organizers are reused by name (listed first), so a second
 * run does not fail: it adds the events again (WordPress allows duplicate titles; slugs get a suffix).
 *
 * Venues and organizers are optional: when their routes are missing (404 / 405 rest_no_route), the
 * events are created without them and a note says so.
 *
 * The functions are exported for bench/run.ts, which seeds a stack it starts itself.
 */

// ---------------------------------------------------------------------------------------------------
// Errors

/** An error of the API, said with the request that got it. */
function failed(what: string, e: unknown): Error {
  if (!(e instanceof CalApiError)) return e as Error;
  return new Error(`${what}: HTTP ${e.status} ${JSON.stringify(e.body).slice(0, 400)}`);
}

// ---------------------------------------------------------------------------------------------------
// Deterministic randomness

export interface Rng {
  (): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
  some<T>(items: readonly T[], min: number, max: number): T[];
}

/** mulberry32: small, fast and the same on every platform. */
export function rng(seed: number): Rng {
  let a = seed >>> 0;
  const next = (() => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }) as Rng;
  next.int = (min, max) => min + Math.floor(next() * (max - min + 1));
  next.pick = (items) => items[Math.floor(next() * items.length)]!;
  next.chance = (p) => next() < p;
  next.some = (items, min, max) => {
    const pool = [...items];
    const n = Math.min(pool.length, next.int(min, max));
    const out: (typeof items)[number][] = [];
    for (let i = 0; i < n; i++) out.push(pool.splice(Math.floor(next() * pool.length), 1)[0]!);
    return out;
  };
  return next;
}

// ---------------------------------------------------------------------------------------------------
// The sample calendar

interface CategoryDef {
  name: string;
  slug: string;
  parent?: string;
  description: string;
}

export const CATEGORIES: readonly CategoryDef[] = [
  { name: 'Music', slug: 'music', description: 'Concerts and live music.' },
  { name: 'Jazz', slug: 'jazz', parent: 'music', description: 'Jazz clubs, big bands and jam sessions.' },
  { name: 'Rock', slug: 'rock', parent: 'music', description: 'Rock, indie and punk shows.' },
  {
    name: 'Classical',
    slug: 'classical',
    parent: 'music',
    description: 'Orchestras, chamber music and recitals.',
  },
  { name: 'Arts', slug: 'arts', description: 'Stage and visual arts.' },
  { name: 'Theatre', slug: 'theatre', parent: 'arts', description: 'Plays, musicals and improv.' },
  {
    name: 'Exhibitions',
    slug: 'exhibitions',
    parent: 'arts',
    description: 'Gallery openings and guided tours.',
  },
  { name: 'Workshops', slug: 'workshops', description: 'Hands-on classes and courses.' },
  { name: 'Family', slug: 'family', description: 'For children and their grown-ups.' },
  { name: 'Food & Drink', slug: 'food-drink', description: 'Tastings, markets and dinners.' },
];

/** Categories events are filed under (leaves and the childless top-level ones). */
const EVENT_CATEGORIES = [
  'jazz',
  'rock',
  'classical',
  'theatre',
  'exhibitions',
  'workshops',
  'family',
  'food-drink',
] as const;

export const TAGS: readonly string[] = [
  'Outdoor',
  'Indoor',
  'Kids',
  'Accessible',
  'Live Stream',
  'Beginner Friendly',
  'Festival',
  'Evening',
  'Weekend',
  'Members Only',
];

interface VenueDef {
  venue: string;
  address: string;
  city: string;
  country: string;
  state?: string;
  province?: string;
  zip: string;
  phone?: string;
  website?: string;
  geo?: [number, number];
  /** Time zone of the events held there (not a venue field). */
  tz: string;
}

export const VENUES: readonly VenueDef[] = [
  {
    venue: 'Spreeufer Jazzkeller',
    address: 'Holzmarktstraße 25',
    city: 'Berlin',
    country: 'Germany',
    zip: '10243',
    phone: '+49 30 1234567',
    website: 'https://jazzkeller.example.org',
    geo: [52.5113, 13.4253],
    tz: 'Europe/Berlin',
  },
  {
    venue: 'Kulturhaus Mitte',
    address: 'Auguststraße 10',
    city: 'Berlin',
    country: 'Germany',
    zip: '10117',
    geo: [52.5269, 13.3958],
    tz: 'Europe/Berlin',
  },
  {
    venue: 'Elbhalle',
    address: 'Große Elbstraße 80',
    city: 'Hamburg',
    country: 'Germany',
    zip: '22767',
    website: 'https://elbhalle.example.org',
    tz: 'Europe/Berlin',
  },
  {
    venue: 'Hudson Street Theater',
    address: '401 Hudson St',
    city: 'New York',
    state: 'NY',
    country: 'United States',
    zip: '10014',
    phone: '+1 212 555 0100',
    geo: [40.7291, -74.0076],
    tz: 'America/New_York',
  },
  {
    venue: 'Brooklyn Maker Space',
    address: '55 Water St',
    city: 'Brooklyn',
    state: 'NY',
    country: 'United States',
    zip: '11201',
    website: 'https://makers.example.com',
    tz: 'America/New_York',
  },
  {
    venue: 'Back Bay Hall',
    address: '300 Boylston St',
    city: 'Boston',
    state: 'MA',
    country: 'United States',
    zip: '02116',
    geo: [42.3522, -71.0691],
    tz: 'America/New_York',
  },
  {
    venue: 'Shibuya Sound Lab',
    address: '1-2-3 Jinnan',
    city: 'Tokyo',
    province: 'Tokyo',
    country: 'Japan',
    zip: '150-0041',
    geo: [35.664, 139.6982],
    tz: 'Asia/Tokyo',
  },
  {
    venue: 'Namba Community Kitchen',
    address: '2-1 Nanba',
    city: 'Osaka',
    province: 'Osaka',
    country: 'Japan',
    zip: '542-0076',
    tz: 'Asia/Tokyo',
  },
  {
    venue: 'Riverside Arts Centre',
    address: '12 South Bank',
    city: 'London',
    country: 'United Kingdom',
    zip: 'SE1 9PX',
    phone: '+44 20 7946 0000',
    geo: [51.5072, -0.1163],
    tz: 'UTC',
  },
  {
    venue: 'Harpa Side Room',
    address: 'Austurbakki 2',
    city: 'Reykjavík',
    country: 'Iceland',
    zip: '101',
    tz: 'UTC',
  },
  {
    venue: 'Bo-Kaap Courtyard',
    address: '71 Wale St',
    city: 'Cape Town',
    province: 'Western Cape',
    country: 'South Africa',
    zip: '8001',
    geo: [-33.9205, 18.4149],
    tz: 'UTC+2',
  },
  {
    venue: 'Online',
    address: '',
    city: '',
    country: '',
    zip: '',
    website: 'https://stream.example.net',
    tz: 'UTC',
  },
];

export const ORGANIZERS: readonly { organizer: string; email?: string; phone?: string; website?: string }[] =
  [
    {
      organizer: 'Blue Note Collective',
      email: 'hello@bluenote-collective.example.org',
      website: 'https://bluenote-collective.example.org',
    },
    { organizer: 'City Arts Council', email: 'events@cityarts.example.org', phone: '+1 212 555 0199' },
    { organizer: 'Loud & Proud Promotions', website: 'https://loudproud.example.com' },
    { organizer: 'Little Explorers', email: 'team@little-explorers.example.com' },
    { organizer: 'Makers Guild', email: 'guild@makers.example.com', phone: '+49 40 555 1234' },
    { organizer: 'Philharmonic Friends', website: 'https://philfriends.example.org' },
    { organizer: 'Taste Collective', email: 'eat@taste.example.jp' },
    { organizer: 'Stagehands Theatre Company', phone: '+44 20 7946 0123' },
  ];

const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'UTC+2'] as const;

const COSTS: ReadonlyArray<string | number | string[]> = [
  'Free',
  '$10 - $25',
  '15€',
  ['5', '10'],
  '$8',
  '20',
  12.5,
  '€5 – €15',
  '',
];

const TITLES: Record<(typeof EVENT_CATEGORIES)[number], { heads: string[]; tails: string[] }> = {
  jazz: {
    heads: ['Late Night', 'Sunday', 'Smoky', 'Big Band', 'Bebop'],
    tails: ['Jazz Session', 'Jam Night', 'Quartet Evening', 'Swing Hour'],
  },
  rock: {
    heads: ['Garage', 'Indie', 'Loud', 'Open Air', 'Punk'],
    tails: ['Rock Night', 'Showcase', 'Double Bill', 'Riot'],
  },
  classical: {
    heads: ['Baroque', 'Chamber', 'Candlelight', 'Romantic', 'Piano'],
    tails: ['Recital', 'Strings Concert', 'Evening', 'Matinee'],
  },
  theatre: {
    heads: ['Improv', 'Midsummer', 'Black Box', 'Premiere:', 'Shadow'],
    tails: ['Comedy', 'Drama', 'Stage Reading', 'Musical'],
  },
  exhibitions: {
    heads: ['Opening:', 'Guided Tour:', 'Vernissage:', 'Last Days:'],
    tails: ['New Photography', 'Colour & Form', 'Urban Sketches', 'Textile Stories'],
  },
  workshops: {
    heads: ['Intro to', 'Hands-on', 'Weekend', 'Advanced'],
    tails: ['Pottery', 'Screen Printing', 'Bread Baking', 'Bike Repair', 'Watercolour'],
  },
  family: {
    heads: ['Family', 'Kids’', 'Puppet', 'Storytime'],
    tails: ['Science Morning', 'Puppet Show', 'Treasure Hunt', 'Craft Club'],
  },
  'food-drink': {
    heads: ['Natural Wine', 'Street Food', 'Ramen', 'Cheese & Cider'],
    tails: ['Tasting', 'Market', 'Supper Club', 'Pop-up'],
  },
};

/** Words sprinkled into descriptions; `acoustic` marks roughly one event in ten (the bench searches it). */
const FLAVOUR = [
  'intimate',
  'rooftop',
  'candlelit',
  'seasonal',
  'local',
  'international',
  'improvised',
  'hands-on',
];

export interface SeedRefs {
  /** Category slug → id. */
  categories: Map<string, number>;
  /** Tag name → id. */
  tags: Map<string, number>;
  /** Venues with their time zone; empty when the routes are missing. */
  venues: Array<{ id: number; tz: string }>;
  organizers: number[];
  notes: string[];
}

// ---------------------------------------------------------------------------------------------------
// Terms and linked posts

async function createTerm(
  collection: 'categories' | 'tags',
  create: () => Promise<{ data: { id: number } }>,
  name: string,
): Promise<{ id: number; reused: boolean }> {
  try {
    return { id: (await create()).data.id, reused: false };
  } catch (e) {
    // term_exists names the term that has the name already.
    const existing = e instanceof CalApiError && (e.body.data as { term_id?: unknown }).term_id;
    if (e instanceof CalApiError && e.code === 'term_exists' && typeof existing === 'number')
      return { id: existing, reused: true };
    throw failed(`POST /${collection} ${JSON.stringify(name)}`, e);
  }
}

/** Creates the categories (parents first) and tags, reusing the ones that exist already. */
export async function seedTerms(
  api: ApiClient,
  concurrency = 8,
): Promise<{ categories: Map<string, number>; tags: Map<string, number>; reused: number }> {
  const categories = new Map<string, number>();
  let reused = 0;
  for (const level of [CATEGORIES.filter((c) => !c.parent), CATEGORIES.filter((c) => c.parent)]) {
    await pool(level, concurrency, async (c) => {
      const body = {
        name: c.name,
        slug: c.slug,
        description: c.description,
        parent: c.parent ? categories.get(c.parent)! : 0,
      };
      const r = await createTerm('categories', () => api.createCategory({ body }), c.name);
      if (r.reused) reused++;
      categories.set(c.slug, r.id);
    });
  }
  const tags = new Map<string, number>();
  await pool(TAGS, concurrency, async (name) => {
    const r = await createTerm('tags', () => api.createTag({ body: { name } }), name);
    if (r.reused) reused++;
    tags.set(name, r.id);
  });
  return { categories, tags, reused };
}

const routeMissing = (e: unknown) =>
  e instanceof CalApiError && (e.status === 404 || e.status === 405) && e.code === 'rest_no_route';

/** A linked-post collection as the seed uses it: its records by name, and a create. */
interface Linked<B> {
  collection: 'venues' | 'organizers';
  names: () => AsyncGenerator<{ id: number; name: string }>;
  create: (body: B) => Promise<{ data: { id: number } }>;
}

/** Ids of the published records of a linked-post collection by name, or undefined when the route is missing. */
async function existingByName<B>(linked: Linked<B>): Promise<Map<string, number> | undefined> {
  const found = new Map<string, number>();
  try {
    for await (const { id, name } of linked.names()) if (!found.has(name)) found.set(name, id);
  } catch (e) {
    if (routeMissing(e)) return undefined;
    throw failed(`GET /${linked.collection}`, e);
  }
  return found;
}

async function seedLinked<D extends object, B extends object>(
  linked: Linked<B>,
  nameOf: (d: D) => string,
  defs: readonly D[],
  body: (d: D) => B,
  concurrency: number,
): Promise<{ ids: number[]; reused: number } | undefined> {
  const existing = await existingByName(linked);
  if (!existing) return undefined;
  let reused = 0;
  let missing = false;
  const ids = await pool(defs, concurrency, async (d) => {
    const known = existing.get(nameOf(d));
    if (known !== undefined) {
      reused++;
      return known;
    }
    try {
      return (await linked.create(body(d))).data.id;
    } catch (e) {
      if (!routeMissing(e)) throw failed(`POST /${linked.collection} ${JSON.stringify(nameOf(d))}`, e);
      missing = true;
      return 0;
    }
  });
  return missing ? undefined : { ids, reused };
}

/** Creates (or finds) venues and organizers; leaves them out when their routes do not exist yet. */
export async function seedLinkedPosts(
  api: ApiClient,
  concurrency = 8,
): Promise<Pick<SeedRefs, 'venues' | 'organizers' | 'notes'> & { reused: number }> {
  const notes: string[] = [];
  let reused = 0;
  const venues = await seedLinked(
    {
      collection: 'venues',
      names: async function* () {
        for await (const v of api.items('listVenues', { query: { per_page: 50 } }))
          yield { id: v.id, name: v.venue };
      },
      create: (body: Schemas['CreateVenueBody']) => api.createVenue({ body }),
    },
    (v) => v.venue,
    VENUES,
    ({ tz: _tz, geo, ...v }) => ({
      ...(Object.fromEntries(Object.entries(v).filter(([, x]) => x !== '')) as typeof v),
      ...(geo ? { geo_lat: geo[0], geo_lng: geo[1], show_map: true } : { show_map: false }),
      status: 'publish' as const,
    }),
    concurrency,
  );
  if (venues) reused += venues.reused;
  else notes.push('the venue routes are not available (404/405): events were created without venues.');
  const organizers = await seedLinked(
    {
      collection: 'organizers',
      names: async function* () {
        for await (const o of api.items('listOrganizers', { query: { per_page: 50 } }))
          yield { id: o.id, name: o.organizer };
      },
      create: (body: Schemas['CreateOrganizerBody']) => api.createOrganizer({ body }),
    },
    (o) => o.organizer,
    ORGANIZERS,
    (o) => ({ ...o, status: 'publish' as const }),
    concurrency,
  );
  if (organizers) reused += organizers.reused;
  else
    notes.push('the organizer routes are not available (404/405): events were created without organizers.');
  return {
    venues: venues ? venues.ids.map((id, i) => ({ id, tz: VENUES[i]!.tz })) : [],
    organizers: organizers?.ids ?? [],
    notes,
    reused,
  };
}

// ---------------------------------------------------------------------------------------------------
// Events

export type EventBody = Schemas['CreateEventBody'];

export interface EventPlanOptions {
  count: number;
  seed: number;
  /** Day the dates are laid out from (UTC); default today. */
  anchor?: DateTime;
  /** Share of events in the past year (the rest fall in the next 24 months). */
  pastShare?: number;
}

const fmt = (d: DateTime) => d.toFormat('yyyy-MM-dd HH:mm:ss');

/** The bodies of `count` POST /events requests, drawn from `seed`: same inputs, same bodies. */
export function planEvents(refs: SeedRefs, o: EventPlanOptions): EventBody[] {
  const r = rng(o.seed);
  const anchor = (o.anchor ?? DateTime.utc()).toUTC().startOf('day');
  const pastShare = o.pastShare ?? 0.15;
  const tagNames = [...refs.tags.keys()];
  const out: EventBody[] = [];
  for (let i = 0; i < o.count; i++) {
    const cat = r.pick(EVENT_CATEGORIES);
    const words = TITLES[cat];
    const title = `${r.pick(words.heads)} ${r.pick(words.tails)}`;
    const venue = refs.venues.length > 0 && r.chance(0.9) ? r.pick(refs.venues) : undefined;
    const timezone = venue && r.chance(0.85) ? venue.tz : r.pick(ZONES);
    const dayOffset = r.chance(pastShare) ? -r.int(1, 365) : r.int(0, 729);
    const day = DateTime.fromObject(
      { year: anchor.year, month: anchor.month, day: anchor.day },
      { zone: timezone === 'UTC+2' ? 'UTC+2' : timezone },
    ).plus({ days: dayOffset });

    const kind = r();
    const allDay = kind < 0.1;
    const multiDay = kind >= 0.1 && kind < 0.18;
    let start: DateTime;
    let end: DateTime;
    if (allDay) {
      start = day;
      end = day.plus({ days: r.chance(0.3) ? r.int(1, 3) : 0 });
    } else if (multiDay) {
      start = day.set({ hour: r.int(9, 18), minute: r.pick([0, 30]) });
      end = start.plus({ days: r.int(1, 4), hours: r.int(1, 6) });
    } else {
      start = day.set({ hour: r.int(9, 21), minute: r.pick([0, 15, 30, 45]) });
      end = start.plus({ minutes: r.pick([60, 90, 120, 150, 180, 240]) });
    }

    const flavour = r.some(FLAVOUR, 1, 3);
    if (r.chance(0.1)) flavour.push('acoustic');
    const description =
      `<p>A ${flavour.join(', ')} ${cat.replace('-', ' & ')} event: ${title.toLowerCase()}.</p>` +
      (r.chance(0.5)
        ? `<p>Doors open 30 minutes before the start. <strong>Bring a friend.</strong></p>`
        : '');
    const categories = [refs.categories.get(cat)!];
    if (cat !== 'family' && r.chance(0.12)) categories.push(refs.categories.get('family')!);
    const body: EventBody = {
      title,
      description,
      excerpt: r.chance(0.6)
        ? `${flavour[0]![0]!.toUpperCase()}${flavour[0]!.slice(1)} ${title.toLowerCase()}.`
        : undefined,
      status: r.chance(0.05) ? 'draft' : 'publish',
      start_date: allDay ? start.toFormat('yyyy-MM-dd') : fmt(start),
      end_date: allDay ? end.toFormat('yyyy-MM-dd') : fmt(end),
      timezone,
      all_day: allDay,
      cost: r.pick(COSTS),
      categories,
      tags: r.some(tagNames, 0, 3).map((t) => refs.tags.get(t)!),
      featured: r.chance(0.05),
      sticky: r.chance(0.03),
      hide_from_listings: r.chance(0.02),
      show_map: venue !== undefined,
      show_map_link: venue !== undefined,
      website: r.chance(0.3) ? `https://tickets.example.com/e/${o.seed}-${i}` : undefined,
    };
    if (venue) body.venue = venue.id;
    if (refs.organizers.length > 0 && r.chance(0.8)) body.organizer = r.some(refs.organizers, 1, 2);
    out.push(Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as EventBody);
  }
  return out;
}

export interface EventsSummary {
  created: number;
  drafts: number;
  ids: number[];
}

/** POSTs the planned events `concurrency` at a time; `onProgress` is called every 100. */
export async function seedEvents(
  api: ApiClient,
  bodies: EventBody[],
  concurrency = 8,
  onProgress?: (done: number) => void,
): Promise<EventsSummary> {
  let done = 0;
  const ids = await pool(bodies, concurrency, async (body) => {
    const { data } = await api.createEvent({ body }).catch((e: unknown) => {
      throw failed(`POST /events ${JSON.stringify(body.title)}`, e);
    });
    if (++done % 100 === 0) onProgress?.(done);
    return data.id;
  });
  return { created: ids.length, drafts: bodies.filter((b) => b.status === 'draft').length, ids };
}

export interface SeedOptions {
  base: string;
  token: string;
  events: number;
  seed?: number;
  concurrency?: number;
  anchor?: DateTime;
  log?: (line: string) => void;
}

export interface SeedSummary {
  refs: SeedRefs;
  events: EventsSummary;
  reused: number;
  retries: number;
  elapsedMs: number;
}

/** Everything: terms, venues and organizers when available, then the events. */
export async function seedCalendar(o: SeedOptions): Promise<SeedSummary> {
  const t0 = performance.now();
  const api = apiClient(o.base, o.token);
  const concurrency = o.concurrency ?? 8;
  const terms = await seedTerms(api, concurrency);
  const linked = await seedLinkedPosts(api, concurrency);
  const refs: SeedRefs = {
    categories: terms.categories,
    tags: terms.tags,
    venues: linked.venues,
    organizers: linked.organizers,
    notes: linked.notes,
  };
  const bodies = planEvents(refs, { count: o.events, seed: o.seed ?? 42, anchor: o.anchor });
  const events = await seedEvents(api, bodies, concurrency, (n) => o.log?.(`  ${n}/${bodies.length} events`));
  return {
    refs,
    events,
    reused: terms.reused + linked.reused,
    retries: api.retries,
    elapsedMs: performance.now() - t0,
  };
}

// ---------------------------------------------------------------------------------------------------
// CLI

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      base: { type: 'string' },
      events: { type: 'string', default: '300' },
      seed: { type: 'string', default: '42' },
      concurrency: { type: 'string', default: '8' },
      anchor: { type: 'string' },
    },
  });
  const base = values.base ?? process.env.CAL_BASE_URL ?? 'http://localhost:3000/cal/events/v1';
  const events = Number(values.events);
  const seed = Number(values.seed);
  const concurrency = Number(values.concurrency);
  const anchor = values.anchor ? DateTime.fromISO(values.anchor, { zone: 'utc' }) : undefined;
  if (
    !Number.isInteger(events) ||
    events < 0 ||
    !Number.isInteger(seed) ||
    !(concurrency >= 1) ||
    (anchor && !anchor.isValid)
  ) {
    console.error(
      'Usage: npm run seed -- [--base URL] [--events N] [--seed N] [--concurrency N] [--anchor YYYY-MM-DD]',
    );
    process.exit(2);
  }

  const probe = await fetch(`${base.replace(/\/+$/, '')}/categories?per_page=1`).catch((e: Error) => e);
  if (probe instanceof Error) {
    console.error(
      `No API answers at ${base} (${(probe.cause as Error | undefined)?.message ?? probe.message}): start it with \`npm start\` first.`,
    );
    process.exit(1);
  }

  console.log(`Seeding ${base} with ${events} events (seed ${seed}, ${concurrency} at a time)...`);
  const token = await adminToken();
  const s = await seedCalendar({
    base,
    token,
    events,
    seed,
    concurrency,
    anchor,
    log: console.log,
  });
  const { refs } = s;
  // Recurring events (issue 27), apart from seedCalendar: the bench seeds through it and counts its events.
  console.log('Adding the recurring events...');
  const series = await seedSeries(apiClient(base, token), refs, anchor ?? DateTime.utc());
  console.log(
    [
      `Done in ${(s.elapsedMs / 1000).toFixed(1)} s:`,
      `  categories  ${refs.categories.size}`,
      `  tags        ${refs.tags.size}`,
      `  venues      ${refs.venues.length}`,
      `  organizers  ${refs.organizers.length}`,
      `  events      ${s.events.created} (${s.events.drafts} drafts)`,
      ...series.map((x) => `  series      ${x.title}: ${x.occurrences} events (series ${x.seriesId})`),
      ...(s.reused > 0
        ? [`  reused ${s.reused} categories / tags / venues / organizers from an earlier run`]
        : []),
      ...(s.retries > 0 ? [`  ${s.retries} requests retried (409 / 429 / 503)`] : []),
      ...refs.notes.map((n) => `Note: ${n}`),
    ].join('\n'),
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((e) => {
    console.error(`Seed failed: ${(e as Error).message}`);
    process.exit(1);
  });
}
