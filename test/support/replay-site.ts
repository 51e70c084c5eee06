import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/**
 * A site running the reference plugin, replayed from its captured answers (the reference samples,
 * outside this repository; the records they hold are kept in test/support/reference-site.json, which
 * `npx tsx test/support/replay-site.ts <samples folder>` writes again): every event, venue, organizer, category and tag the reads
 * (samples 040-154) returned, served back by its REST API the way the reference serves lists: pages of
 * `per_page` (default 10, at most 50) with `next_rest_url`, `total`, `total_pages` and `X-TEC-Total`
 * headers, a 404 past the last page of events and venues, a default window of dates for events
 * (yesterday to two years ahead of the capture), published records only to anonymous callers and every
 * status to the administrator (HTTP Basic with an application password), 401 `incorrect_password` for
 * a wrong one, and no event hidden from listings in any list (as the reference).
 *
 * It refuses what the real plugin refuses (The Events Calendar 6.0.3.1, seen against a real site): a
 * `start_date`/`end_date` that PHP's strtotime reads as 0 (`1970-01-01`) is a 400; to an editor its
 * `next_rest_url` carries `status=any`, which the same endpoint refuses (400), while a named list of
 * statuses is served; a subscriber (authenticated, no edit rights) may not name statuses either. Under
 * load a real site answers 502 now and then and pages can be slow: `failNext` and `delayMs` do that.
 * The records are served as the site answers them (titles with `&#038;`, escaped event websites): the
 * captured ones are the reference's own answers, and realSiteRecords() is written in that form.
 */

const FIXTURE = join(import.meta.dirname, 'reference-site.json');
const CAPTURED_HOST = 'http://127.0.0.1:8089';
const NS = '/wp-json/tribe/events/v1';

type Rec = Record<string, any> & { id: number };
export type Collection = 'events' | 'venues' | 'organizers' | 'categories' | 'tags';

export interface ReplaySite {
  origin: string;
  /** The records served, by collection (change them to change the site). */
  records: Record<Collection, Rec[]>;
  user: string;
  appPassword: string;
  /** A user who can read but not edit events (WordPress's subscriber), and its application password. */
  subscriber: { user: string; appPassword: string };
  /** Every request's path and query, in order. */
  requests: string[];
  /** The next `times` requests whose path and query match answer `status` (nginx's error page). */
  failNext(match: RegExp, times?: number, status?: number): void;
  /** A pause before every answer (a site under load). */
  delayMs: number;
  close(): Promise<void>;
}

/** The records the reads of the samples returned, the last answer of each record winning. */
export function sampledRecords(samples: string): Record<Collection, Rec[]> {
  const out: Record<Collection, Map<number, Rec>> = {
    events: new Map(),
    venues: new Map(),
    organizers: new Map(),
    categories: new Map(),
    tags: new Map(),
  };
  for (const file of readdirSync(samples)
    .filter((f) => /^(0[4-9]\d|1[0-4]\d|15[0-4])-/.test(f))
    .sort()) {
    const { request, response } = JSON.parse(readFileSync(join(samples, file), 'utf8'));
    if (request.method !== 'GET' || response.status !== 200) continue;
    const body = response.body;
    const kind = (request.path as string).slice(NS.length + 1).split('/')[0] as Collection;
    if (!(kind in out)) continue;
    const found: Rec[] = Array.isArray(body[kind]) ? body[kind] : typeof body.id === 'number' ? [body] : [];
    for (const r of found) out[kind].set(r.id, r);
  }
  const sorted = (m: Map<number, Rec>) => [...m.values()].sort((a, b) => a.id - b.id);
  return {
    events: sorted(out.events).sort((a, b) => a.start_date.localeCompare(b.start_date) || a.id - b.id),
    venues: sorted(out.venues),
    organizers: sorted(out.organizers),
    categories: sorted(out.categories),
    tags: sorted(out.tags),
  };
}

/** The records of the reference samples, as kept in the fixture. */
export const referenceRecords = (): Record<Collection, Rec[]> => JSON.parse(readFileSync(FIXTURE, 'utf8'));

/**
 * The reference records with `events` events (the bench's site at scale): the reference's own events
 * repeated, each copy with its own ID, title and slug, linked to the same venues, organizers and terms.
 * Events hidden from listings are left out (no list would serve them).
 */
export function scaledRecords(events: number): Record<Collection, Rec[]> {
  const base = referenceRecords();
  const templates = base.events.filter((e) => !e.hide_from_listings);
  const copies = Array.from({ length: events }, (_, i) => {
    const t = templates[i % templates.length]!;
    const slug = `${t.slug || 'event'}-${i + 1}`;
    const url = `${CAPTURED_HOST}/event/${slug}/`;
    return {
      ...t,
      id: 100_000 + i,
      title: `${t.title} ${i + 1}`,
      slug,
      url,
      rest_url: `${CAPTURED_HOST}${NS}/events/${100_000 + i}`,
      website: t.website === t.url ? url : t.website,
    };
  });
  return { ...base, events: copies };
}

export async function startReplaySite(records = referenceRecords()): Promise<ReplaySite> {
  const user = 'admin';
  const appPassword = 'abcd efgh ijkl mnop qrst uvwx';
  const requests: string[] = [];
  const subscriber = { user: 'reader', appPassword: 'zyxw vuts rqpo nmlk jihg fedc' };
  const failures: Array<{ match: RegExp; times: number; status: number }> = [];
  const site = { records, user, appPassword, subscriber, requests, delayMs: 0 } as ReplaySite;
  site.failNext = (match, times = 1, status = 502) => failures.push({ match, times, status });

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', site.origin);
    const asked = `${url.pathname}${url.search}`;
    requests.push(asked);
    if (site.delayMs) await new Promise((ok) => setTimeout(ok, site.delayMs));
    const failure = failures.find((f) => f.times > 0 && f.match.test(asked));
    if (failure) {
      failure.times--;
      res.writeHead(failure.status, { 'content-type': 'text/html' });
      return res.end(`<html><head><title>${failure.status} Bad Gateway</title></head><body></body></html>`);
    }
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      const text = JSON.stringify(body).replaceAll(CAPTURED_HOST, site.origin);
      res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
      res.end(text);
    };
    const invalid = (param: string) =>
      send(400, {
        code: 'rest_invalid_param',
        message: `Invalid parameter(s): ${param}`,
        data: { status: 400, params: { [param]: `Invalid parameter(s): ${param}` } },
      });
    const auth = req.headers.authorization;
    let admin = false;
    let reader = false;
    if (auth) {
      const [who, password] = Buffer.from(auth.replace(/^Basic /, ''), 'base64')
        .toString()
        .split(':');
      admin = who === user && password === appPassword;
      reader = who === subscriber.user && password === subscriber.appPassword;
      if (!admin && !reader)
        return send(401, {
          code: 'incorrect_password',
          message: 'The provided password is an invalid application password.',
          data: { status: 401 },
        });
    }
    if (!url.pathname.startsWith(NS))
      return send(404, { code: 'rest_no_route', message: 'No route', data: { status: 404 } });
    const rest = url.pathname.slice(NS.length).replace(/\/+$/, '');
    if (rest === '') return send(200, { namespace: 'tribe/events/v1', routes: {} });
    const kind = rest.slice(1) as Collection;
    if (!(kind in records))
      return send(404, { code: 'rest_no_route', message: 'No route', data: { status: 404 } });

    const q = url.searchParams;
    const perPage = Math.min(Number(q.get('per_page') ?? 10), 50);
    const page = Number(q.get('page') ?? 1);
    let list = records[kind];
    if (kind === 'events' || kind === 'venues' || kind === 'organizers') {
      // The plugin's own link for an editor says `status=any`, and the same endpoint refuses it.
      const statuses = q.get('status')?.split(',');
      if (statuses && (!admin || statuses.includes('any'))) return invalid('status');
      list = list.filter((r) =>
        admin ? (statuses ?? [r.status]).includes(r.status) : r.status === 'publish',
      );
    }
    if (kind === 'events') {
      // The plugin validates dates with strtotime, whose 0 (1970-01-01 00:00 UTC) reads as "not a date".
      for (const param of ['start_date', 'end_date'])
        if (q.has(param) && Date.parse(`${q.get(param)!.slice(0, 10)}T00:00:00Z`) === 0)
          return invalid(param);
      const start = (q.get('start_date') ?? '2026-11-21').slice(0, 10);
      const end = (q.get('end_date') ?? '2028-11-22').slice(0, 10);
      list = list.filter(
        (e) => !e.hide_from_listings && e.end_date.slice(0, 10) >= start && e.start_date.slice(0, 10) <= end,
      );
    }
    if ((kind === 'categories' || kind === 'tags') && !['false', '0'].includes(q.get('hide_empty') ?? ''))
      list = list.filter((t) => t.count > 0);
    const total = list.length;
    const pages = Math.ceil(total / perPage);
    if (page > Math.max(pages, 1) && (kind === 'events' || kind === 'venues'))
      return send(404, {
        code: kind === 'events' ? 'event-archive-page-not-found' : 'venue-archive-page-not-found',
        message: 'The requested archive page does not exist',
        data: { status: 404 },
      });
    const link = (p: number) => {
      const next = new URLSearchParams(q);
      next.set('page', String(p));
      if (admin && kind === 'events') next.set('status', 'any');
      return `${site.origin}${NS}/${kind}/?${next}`;
    };
    send(
      200,
      {
        [kind]: list.slice((page - 1) * perPage, page * perPage),
        rest_url: link(page),
        ...(page < pages ? { next_rest_url: link(page + 1) } : {}),
        ...(page > 1 ? { previous_rest_url: link(page - 1) } : {}),
        total,
        total_pages: pages,
      },
      { 'x-tec-total': String(total), 'x-tec-totalpages': String(pages) },
    );
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  site.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  site.close = () => new Promise<void>((ok) => server.close(() => ok()));
  return site;
}

if (process.argv[1]?.endsWith('replay-site.ts')) {
  const samples = process.argv[2] ?? '';
  if (!existsSync(join(samples, 'index.json')))
    throw new Error('Usage: npx tsx test/support/replay-site.ts <reference samples folder>');
  writeFileSync(FIXTURE, `${JSON.stringify(sampledRecords(samples), null, 1)}\n`);
}
