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
  /** Every request's path and query, in order. */
  requests: string[];
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
  const site = { records, user, appPassword, requests } as ReplaySite;

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', site.origin);
    requests.push(`${url.pathname}${url.search}`);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      const text = JSON.stringify(body).replaceAll(CAPTURED_HOST, site.origin);
      res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
      res.end(text);
    };
    const auth = req.headers.authorization;
    let admin = false;
    if (auth) {
      const [who, password] = Buffer.from(auth.replace(/^Basic /, ''), 'base64')
        .toString()
        .split(':');
      if (who !== user || password !== appPassword)
        return send(401, {
          code: 'incorrect_password',
          message: 'The provided password is an invalid application password.',
          data: { status: 401 },
        });
      admin = true;
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
      if (q.has('status') && !admin)
        return send(400, {
          code: 'rest_invalid_param',
          message: 'Invalid parameter(s): status',
          data: { status: 400 },
        });
      list = list.filter((r) => admin || r.status === 'publish');
    }
    if (kind === 'events') {
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
