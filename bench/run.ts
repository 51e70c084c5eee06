/**
 * `npm run bench`: does a request's cost follow the page or the calendar? (issue 9)
 *
 *   npm run bench -- --sizes 1000,50000 [--out bench.json] [--requests 100] [--concurrency 4]
 *   npm run bench -- --load [--clients 10] [--seconds 20]
 *   npm run bench -- --report docs/benchmarks.md [--out bench/results/1000-50000.json]
 *   npm run bench -- --from bench/results/1000-50000.json [--report docs/benchmarks.md]
 *   npm run bench -- --cold-only --report docs/cold-start.md [--out bench/results/cold-start.json]
 *   npm run bench -- --import [--import-events 10000] [--report docs/benchmarks.md] [--out file.json]
 *   npm run bench -- --series [--sizes 1000,50000] [--series-creates 5] [--extend-series 1000] [--report docs/benchmarks.md]
 *   npm run bench -- --pages [--requests 100] [--warmup 10] [--report docs/benchmarks.md] [--out file.json]
 *   npm run bench -- --webhooks [--rate 20] [--seconds 20] [--report docs/benchmarks.md] [--out file.json]
 *   npm run bench -- --idle [--seconds 20] [--idle-events 50] [--report docs/benchmarks.md] [--out file.json]
 *   npm run bench -- --tickets [--sizes 1000,50000] [--registrations 200] [--racers 200] [--seats 50] [--ticket-share 0.05] [--report docs/benchmarks.md]
 *
 * Self-contained: it starts DynamoDB Local (in memory) and the local gateway in this process on free
 * ports with a fresh table, and stops them at the end. Never part of `npm test`; it asserts nothing
 * about speed, but it fails when the bulk path stops writing what the API writes.
 *
 * A run: terms, venues and organizers through the API; a sample of events made through the API and
 * again through the bulk path (bench/bulk.ts), whose items must match; then for each size the tag
 * taxonomy grown (100 terms at the first size, 10,000 at the last) and the events added in bulk up to
 * the size, every read case measured over HTTP, and the write cases (create, update) through the API.
 * Two read cases are made to compare equal pages at every size (the calendar's size stays exact): the
 * default listing's total is made a multiple of the page size by setting the fewest (0-9) of its last
 * events to draft through the API, so its last page is full; and category + venue uses the venue with
 * the most jazz events at the first size, kept at the later ones. Each run prints what it chose.
 * One table at the end, JSON to --out, then the handler time per stage for a 50-event page and the
 * cold start of every function bundle against a bare client (A/B, interleaved). With --report the
 * results also go into a Markdown document (bench/report-markdown.ts), rendered from the JSON, which
 * is then always written (to --out, else bench/results/<sizes>.json) so the two agree; --from renders
 * a saved results file without running anything.
 *
 * DynamoDB calls, items read and consumed capacity per request come from a middleware on the shared
 * document client (in this process only; shared/ is unchanged).
 *
 * A full run ends with the idle stack's CPU (bench/idle.ts): `npm start` seeded a little and left alone.
 */

import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { parseArgs } from 'node:util';
import { CalApiError } from '../client/src';
import type { ApiClient } from '../import-export/src';
import type { EventBody } from '../scripts/seed';
import type { Figures } from './report';
import type { BenchResults, ColdResults, SeriesResults } from './report-markdown';
import type { PagesResults } from './pages';
import type { WebhooksResults } from './webhooks';
import type { ImportResults } from './import';
import type { IdleResults } from './idle';
import type { TicketsResults } from './tickets-report';
import { gitCommit } from '../scripts/lib/git-commit';

const USAGE =
  'Usage: npm run bench -- [--sizes 1000,50000] [--out file.json] [--requests 100] [--concurrency 4] ' +
  '[--write-requests 40] [--sample 20] [--tags 100,10000] [--cold-rounds 31] [--handler-iterations 40]\n' +
  '       npm run bench -- --load [--clients 10] [--seconds 20] [--events 300]\n' +
  '       npm run bench -- --cold-only [--cold-rounds 31] [--report docs/cold-start.md] [--out file.json]\n' +
  '       npm run bench -- --import [--import-events 10000] [--report docs/benchmarks.md] [--out file.json]\n' +
  '       npm run bench -- --series [--sizes 1000,50000] [--series-creates 5] [--extend-series 1000] [--report docs/benchmarks.md] [--out file.json]\n' +
  '       npm run bench -- --pages [--requests 100] [--warmup 10] [--report docs/benchmarks.md] [--out file.json]\n' +
  '       npm run bench -- --webhooks [--rate 20] [--seconds 20] [--report docs/benchmarks.md] [--out file.json]\n' +
  '       npm run bench -- --idle [--seconds 20] [--idle-events 50] [--report docs/benchmarks.md] [--out file.json]\n' +
  '       npm run bench -- --tickets [--sizes 1000,50000] [--registrations 200] [--racers 200] [--seats 50] [--ticket-share 0.05] [--report docs/benchmarks.md] [--out file.json]\n' +
  '       npm run bench -- ... --report docs/benchmarks.md | --from results.json [--report file.md]';

let parsed;
try {
  parsed = parseArgs({
    options: {
      sizes: { type: 'string', default: '1000,50000' },
      out: { type: 'string' },
      report: { type: 'string' },
      from: { type: 'string' },
      requests: { type: 'string', default: '100' },
      concurrency: { type: 'string', default: '4' },
      warmup: { type: 'string', default: '10' },
      'write-requests': { type: 'string', default: '40' },
      sample: { type: 'string', default: '20' },
      tags: { type: 'string', default: '100,10000' },
      'bulk-concurrency': { type: 'string', default: '16' },
      writers: { type: 'string', default: '24' },
      'cold-rounds': { type: 'string', default: '31' },
      'handler-iterations': { type: 'string', default: '40' },
      load: { type: 'boolean', default: false },
      'cold-only': { type: 'boolean', default: false },
      import: { type: 'boolean', default: false },
      pages: { type: 'boolean', default: false },
      webhooks: { type: 'boolean', default: false },
      idle: { type: 'boolean', default: false },
      'idle-events': { type: 'string', default: '50' },
      rate: { type: 'string', default: '20' },
      'import-events': { type: 'string', default: '10000' },
      series: { type: 'boolean', default: false },
      'series-creates': { type: 'string', default: '5' },
      'extend-series': { type: 'string', default: '1000' },
      tickets: { type: 'boolean', default: false },
      registrations: { type: 'string', default: '200' },
      racers: { type: 'string', default: '200' },
      seats: { type: 'string', default: '50' },
      'ticket-share': { type: 'string', default: '0.05' },
      clients: { type: 'string', default: '10' },
      seconds: { type: 'string', default: '20' },
      events: { type: 'string', default: '300' },
    },
  });
} catch (e) {
  console.error(`${(e as Error).message}\n${USAGE}`);
  process.exit(2);
}
const args = parsed.values;

/**
 * Writes the Markdown report of `results` (saved as `source`) into `args.report`, or prints it. Each
 * kind of run is told by a field of its own and rendered between its own markers; a full run's
 * results (with cases) between the main report's.
 */
async function writeReport(results: unknown, source: string): Promise<void> {
  const md = await import('./report-markdown');
  const has = (field: string) => field in (results as object);
  const kinds: Array<{
    is: boolean;
    render: () => Promise<{ block: string; markers?: { begin: string; end: string } }>;
  }> = [
    {
      is: has('race'),
      render: async () => {
        const t = await import('./tickets-report');
        return {
          block: t.renderTicketsReport(results as TicketsResults, source),
          markers: t.TICKETS_MARKERS,
        };
      },
    },
    {
      is: has('deliveries_per_second'),
      render: async () => {
        const w = await import('./webhooks');
        return {
          block: w.renderWebhooksReport(results as WebhooksResults, source),
          markers: w.WEBHOOKS_MARKERS,
        };
      },
    },
    {
      is: has('cpu_s_per_minute'),
      render: async () => {
        const i = await import('./idle');
        return { block: i.renderIdleReport(results as IdleResults, source), markers: i.IDLE_MARKERS };
      },
    },
    {
      is: has('pages'),
      render: async () => {
        const p = await import('./pages');
        return { block: p.renderPagesReport(results as PagesResults, source), markers: p.PAGES_MARKERS };
      },
    },
    {
      is: has('writes'),
      render: async () => ({
        block: md.renderSeriesReport(results as SeriesResults, source),
        markers: md.SERIES_MARKERS,
      }),
    },
    {
      is: has('runs') && has('events'),
      render: async () => {
        const i = await import('./import');
        return { block: i.renderImportReport(results as ImportResults, source), markers: i.IMPORT_MARKERS };
      },
    },
    {
      is: !has('cases'),
      render: async () => ({
        block: md.renderColdReport(results as ColdResults, source),
        markers: md.COLD_MARKERS,
      }),
    },
  ];
  const kind = kinds.find((k) => k.is);
  const { block, markers } = kind
    ? await kind.render()
    : { block: md.renderReport(results as BenchResults, source), markers: undefined };
  if (!args.report) return void console.log(block);
  const existing = existsSync(args.report) ? readFileSync(args.report, 'utf8') : undefined;
  writeFileSync(args.report, md.withReport(existing, block, markers));
  console.log(`Wrote the report of ${source} into ${args.report}.`);
}

// A saved run rendered again: nothing is started.
if (args.from) {
  await writeReport(JSON.parse(readFileSync(args.from, 'utf8')), args.from);
  process.exit(0);
}
const num = (k: keyof typeof args) => Number(args[k]);
const SIZES = String(args.sizes).split(',').map(Number);
// One count is both: the taxonomy's size at the first size and at the last.
const TAG_COUNTS = String(args.tags).split(',').map(Number);
const [TAGS_FIRST, TAGS_LAST] = [TAG_COUNTS[0]!, TAG_COUNTS.at(-1)!];
const REQUESTS = num('requests');
const CONCURRENCY = num('concurrency');
const WARMUP = num('warmup');
const WRITE_REQUESTS = num('write-requests');
const SAMPLE = num('sample');
const positive = (n: number) => Number.isInteger(n) && n >= 1;
if (
  SIZES.some((n, i) => !positive(n) || (i > 0 && n <= SIZES[i - 1]!)) ||
  ![
    REQUESTS,
    CONCURRENCY,
    WRITE_REQUESTS,
    SAMPLE,
    TAGS_FIRST,
    TAGS_LAST,
    num('clients'),
    num('seconds'),
    num('rate'),
    num('import-events'),
    num('series-creates'),
    num('extend-series'),
    num('idle-events'),
    num('registrations'),
    num('racers'),
    num('seats'),
  ].every(positive) ||
  !(num('ticket-share') > 0 && num('ticket-share') <= 1) ||
  !(WARMUP >= 0) ||
  !(num('cold-rounds') >= 0) ||
  SIZES[0]! < 2 * SAMPLE + 10
) {
  console.error(
    `Bad arguments: sizes must be increasing integers, the first at least ${2 * SAMPLE + 10} (twice --sample plus 10); counts positive.\n${USAGE}`,
  );
  process.exit(2);
}

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => ok(port));
    });
  });
}

// Handler modules read their configuration when they load: the environment is complete before any
// of them (or anything importing shared/config) is imported below.
const dynamoPort = await freePort();
const secret = randomBytes(32).toString('hex');
Object.assign(process.env, {
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  AWS_REGION: 'local',
  TABLE_NAME: `bench-${Date.now()}`,
  DYNAMODB_ENDPOINT: `http://127.0.0.1:${dynamoPort}`,
  AUTH_LOCAL_SECRET: secret,
  SITE_URL: 'http://bench.local',
  SITE_TIMEZONE: 'UTC',
  // An import sends 8 requests at a time for minutes: on a loaded machine a function may need more than
  // the deployed 10 s, as under test (test/support/env.ts).
  ...(args.import || args.series || args.tickets
    ? { CAL_LOCAL_FUNCTION_TIMEOUT_MS: process.env.CAL_LOCAL_FUNCTION_TIMEOUT_MS ?? '60000' }
    : {}),
  // The webhook bench's receiver is on this machine, as the local stack allows (docs/webhooks.md).
  ...(args.webhooks ? { CAL_OUTBOUND_LOCAL: '1' } : {}),
});

const { startLocalStack } = await import('../local/stack');
const { apiClient, pool } = await import('../import-export/src');
const seed = await import('../scripts/seed');
const { signLocalToken } = await import('../local/token');
const { usage, instrument, startTrip, roundTrips, settled } = await import('./usage');
const { bulkCreate, verifyBulk } = await import('./bulk');
const report = await import('./report');

// ---------------------------------------------------------------------------------------------------
// Stack lifecycle

let stack: { stop: () => Promise<void> } | undefined;
let stopping: Promise<void> | undefined;
const stopAll = () => (stopping ??= (async () => await stack?.stop())());
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    console.error(`\n${signal}: stopping`);
    void stopAll().finally(() => process.exit(130));
  });

async function startStack(): Promise<string> {
  const t0 = performance.now();
  await instrument({ sizeWrites: !args.import });
  const started = await startLocalStack({
    dynamo: { port: dynamoPort },
    // Only the webhook engine reads the table's stream, and DynamoDB Local's emulation of it slows every
    // write as the run goes (local/dynamo.ts): measured with it, the import ran at 4 events a second.
    table: { name: process.env.TABLE_NAME!, stream: args.webhooks },
    gateway: { port: 0 },
  });
  stack = started;
  const base = started.base!;
  console.log(
    `Stack up in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${base} (DynamoDB Local in memory, table ${process.env.TABLE_NAME})`,
  );
  return base;
}

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const clock = (s: number) =>
  s >= 60 ? `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, '0')}s` : `${s.toFixed(0)}s`;

// ---------------------------------------------------------------------------------------------------
// Measurement

interface Case {
  name: string;
  kind: 'read' | 'write';
  /** Read cases: the URL below the namespace. */
  path?: string;
  /** What the request is, with the run's choices: the report lists it beside the case. */
  note: string;
}

/** The first requests of each case go one at a time, for their round trips; the rest `CONCURRENCY` at a time. */
const ALONE = 3;

/** Sends `n` requests (`send(i)`): the first ALONE alone, their round trips taken, then the rest in a pool. */
async function sendAll(n: number, send: (i: number) => Promise<void>): Promise<number> {
  const trips: number[] = [];
  const alone = Math.min(ALONE, n);
  for (let i = 0; i < alone; i++) {
    startTrip();
    await send(i);
    trips.push(roundTrips());
  }
  await pool(
    Array.from({ length: n - alone }, (_, i) => alone + i),
    CONCURRENCY,
    send,
  );
  return trips.reduce((a, b) => a + b, 0) / Math.max(1, trips.length);
}

async function measureRead(base: string, c: { path?: string }): Promise<Figures> {
  const times: number[] = [];
  let errors = 0;
  let total = '';
  let shown = 0;
  const before = { ...usage };
  const trips = await sendAll(REQUESTS, async () => {
    const t0 = performance.now();
    const res = await fetch(`${base}${c.path}`);
    const body = (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    times.push(performance.now() - t0);
    if (res.status !== 200) errors++;
    // A list's page is its one array beside `total`; a single record counts one.
    const list = body && 'total' in body ? (Object.values(body).find(Array.isArray) as unknown[]) : undefined;
    shown += res.status === 200 ? (list?.length ?? 1) : 0;
    total ||= res.headers.get('x-cal-total') ?? '-';
  });
  await settled();
  return report.figures(times, usage, before, REQUESTS, { errors, total, shown: shown / REQUESTS, trips });
}

/** An error answer of a measured write, counted by its status as the others are (not thrown). */
const answered = (e: unknown): { status: number } => {
  if (e instanceof CalApiError) return e;
  throw e;
};

async function measureWrites(
  n: number,
  send: (i: number) => Promise<{ status: number }>,
  expect: number,
): Promise<Figures> {
  const times: number[] = [];
  let errors = 0;
  const before = { ...usage };
  const trips = await sendAll(n, async (i) => {
    const t0 = performance.now();
    const res = await send(i);
    times.push(performance.now() - t0);
    if (res.status !== expect) errors++;
  });
  await settled();
  return report.figures(times, usage, before, n, { errors, total: '-', shown: 1, trips });
}

/** Tags at each size: TAGS_FIRST at the first, TAGS_LAST at the last, geometric in between. */
function tagsAt(round: number): number {
  if (SIZES.length === 1) return TAGS_FIRST;
  const t = Math.log(SIZES[round]! / SIZES[0]!) / Math.log(SIZES[SIZES.length - 1]! / SIZES[0]!);
  return Math.round(TAGS_FIRST * (TAGS_LAST / TAGS_FIRST) ** t);
}

const RARE_WORD = 'zephyrine';
const RARE_COUNT = 5;

/** The API's default page size, which every read case uses. */
const PER_PAGE = 10;

/** A check of the bench's own setup that failed: printed as its one-line message, without a stack. */
class SetupError extends Error {
  override name = 'SetupError';
}

/** X-Cal-Total and X-Cal-TotalPages of an anonymous `GET /events<query>`. */
async function listTotals(base: string, query: string): Promise<{ total: number; pages: number }> {
  const res = await fetch(`${base}/events${query}`);
  await res.arrayBuffer();
  const total = res.headers.get('x-cal-total');
  const pages = res.headers.get('x-cal-totalpages');
  if (res.status !== 200 || total === null || pages === null)
    throw new SetupError(
      `GET /events${query}: HTTP ${res.status}, X-Cal-Total ${total}, X-Cal-TotalPages ${pages}`,
    );
  return { total: Number(total), pages: Number(pages) };
}

/**
 * Makes the default (anonymous) listing's total a multiple of PER_PAGE, so that its last page is full
 * at every size and the last-page case compares pages that hold the same number of events: the fewest
 * (0-9) of the listing's last events are set to draft, each by an update through the API (not the bulk
 * path), skipping the events in `keep`. The calendar keeps its size; only the listing loses them.
 */
async function fillLastPage(
  base: string,
  api: ApiClient,
  keep: Set<number>,
): Promise<{ drafted: number; before: number; total: number; pages: number }> {
  const before = await listTotals(base, '');
  const excess = before.total % PER_PAGE;
  let drafted = 0;
  // From the last page back: drafting an event of a page leaves the pages before it as they were.
  for (let page = before.pages; page >= 1 && drafted < excess; page--) {
    const res = await fetch(`${base}/events?page=${page}`);
    const body = (await res.json()) as { events?: Array<{ id: number; description?: string }> };
    if (res.status !== 200) throw new SetupError(`GET /events?page=${page}: HTTP ${res.status}`);
    for (const e of (body.events ?? []).reverse()) {
      if (drafted >= excess) break;
      if (keep.has(e.id) || String(e.description ?? '').includes(RARE_WORD)) continue;
      await api.updateEvent({ path: { id: e.id }, body: { status: 'draft' } }).catch((err: CalApiError) => {
        throw new SetupError(
          `POST /events/${e.id} {"status":"draft"}: HTTP ${err.status} ${JSON.stringify(err.body)}`,
        );
      });
      drafted++;
    }
  }
  const after = await listTotals(base, '');
  if (
    drafted !== excess ||
    after.total % PER_PAGE !== 0 ||
    after.total !== before.total - drafted ||
    after.pages !== after.total / PER_PAGE
  )
    throw new SetupError(
      `the default listing's last page could not be made full: total ${before.total}, ${drafted} of ${excess} events drafted, now total ${after.total} in ${after.pages} pages (want a multiple of ${PER_PAGE})`,
    );
  return { drafted, before: before.total, total: after.total, pages: after.pages };
}

function progressLine(what: string) {
  let last = 0;
  return (p: { done: number; total: number; seconds: number; backlog: number; phase: string }) => {
    const now = performance.now();
    if (now - last < 900 && p.done < p.total) return;
    last = now;
    const rate = p.done / Math.max(p.seconds, 0.001);
    const eta = rate > 0 ? (p.total - p.done) / rate : 0;
    process.stderr.write(
      p.phase === 'records'
        ? `\r  ${what}: ${p.done}/${p.total}  ${rate.toFixed(0)}/s  ETA ${clock(eta)}  (write backlog ${p.backlog} items)      `
        : `\r  ${what}: summed counters and tallies ${p.done}/${p.total}                                  `,
    );
  };
}

async function bench(): Promise<void> {
  const t0 = performance.now();
  const base = await startStack();
  const token = await signLocalToken(secret, 'administrator', 'bench', '12h');
  const api = apiClient(base, token);
  console.log(
    `${REQUESTS} requests per read case and ${WRITE_REQUESTS} per write case, ${CONCURRENCY} at a time, after ${WARMUP} warm-up requests per case; times in ms.\n`,
  );

  const terms = await seed.seedTerms(api, 8);
  const linked = await seed.seedLinkedPosts(api, 8);
  const refs = {
    categories: terms.categories,
    tags: terms.tags,
    venues: linked.venues,
    organizers: linked.organizers,
    notes: linked.notes,
  };
  for (const n of refs.notes) console.log(`Note: ${n}`);
  if (refs.venues.length === 0 || refs.organizers.length === 0)
    throw new Error('the venue and organizer routes are needed by the bench cases');
  const bulkEvents = { handler: 'functions/events/create-event', path: '/events', token };
  const bulkTags = { handler: 'functions/tags/create-tag', path: '/tags', token };

  // The bulk path must write what the API writes: same bodies both ways, every item compared.
  const sampleBodies = seed.planEvents(refs, { count: SAMPLE, seed: 7 });
  const check = await verifyBulk(
    sampleBodies,
    async (body) => {
      const res = await api.createEvent({ body: body as EventBody }).catch((err: CalApiError) => {
        throw new Error(`sample POST /events: HTTP ${err.status} ${JSON.stringify(err.body)}`);
      });
      return res.data.id;
    },
    bulkEvents,
  );
  if (check.differences.length > 0) {
    console.error(
      `\nBULK PATH CHECK FAILED: ${SAMPLE} events made through the API and through the bulk path wrote different items (${check.differences.length} differences):`,
    );
    for (const d of check.differences.slice(0, 15)) console.error(`  - ${d}`);
    throw new Error(
      'the bulk path no longer writes what the API writes (bench/bulk.ts): fix it before measuring',
    );
  }
  /** What the run chose and checked while setting up: printed, and kept in the results. */
  const setup: string[] = [];
  const note = (line: string) => {
    console.log(line);
    setup.push(line);
  };
  note(
    `Bulk path checked: ${SAMPLE} events through the API and the same bodies in bulk wrote the same ${check.items} items (IDs, slug suffixes and write times aside).`,
  );

  let events = 2 * SAMPLE;
  let tags = refs.tags.size;
  const cases: Case[] = [];
  const bySize = new Map<number, Map<string, Figures>>();
  const anchor = new Date();
  const day = (offset: number) => new Date(anchor.getTime() + offset * 86400_000).toISOString().slice(0, 10);
  const venue = refs.venues[0]!.id;
  /** Category + venue's venue: the one with the most jazz events in the default listing at the first size. */
  const pair = { venue: 0, total: 0, size: 0 };
  const organizer = refs.organizers[0]!;
  const tagId = refs.tags.get('Outdoor')!;
  let lastRound = { size: 0, someId: 0 };
  const single = { id: 0, slug: '' };

  for (const [round, size] of SIZES.entries()) {
    // Tags first: the term look-ups of every case below see the grown taxonomy.
    const wantTags = tagsAt(round);
    if (wantTags > tags) {
      const bodies = Array.from({ length: wantTags - tags }, (_, i) => ({
        name: `Bench Tag ${String(tags + i + 1).padStart(5, '0')}`,
      }));
      const r = await bulkCreate(bodies, { ...bulkTags, onProgress: progressLine('tags') });
      process.stderr.write('\n');
      console.log(`Tags: ${wantTags} (added ${bodies.length} in ${r.seconds.toFixed(1)} s)`);
      tags = wantTags;
    }
    const add = size - events;
    if (add > 0) {
      const bodies = seed.planEvents(refs, { count: add, seed: 1000 + round });
      if (round === 0) {
        // A word a fixed handful of upcoming, listed events carry at every size: the rare search.
        let marked = 0;
        for (const b of bodies) {
          if (marked >= RARE_COUNT) break;
          if (b.status !== 'publish' || b.hide_from_listings || String(b.start_date) < day(2)) continue;
          b.description = `${String(b.description)}<p>A ${RARE_WORD} edition.</p>`;
          marked++;
        }
      }
      const r = await bulkCreate(bodies, {
        ...bulkEvents,
        concurrency: num('bulk-concurrency'),
        writers: num('writers'),
        onProgress: progressLine(`events to ${size}`),
      });
      process.stderr.write('\n');
      console.log(
        `Seeded ${add} events in bulk (table now ${size}) in ${r.seconds.toFixed(1)} s: ${(add / r.seconds).toFixed(0)} events/s, ` +
          `${(r.items / add).toFixed(1)} items per event (${r.puts} puts and ${r.counters} summed counter items in ${r.batchCalls} batch calls; ` +
          `reads that reached DynamoDB: ${Object.entries(r.passed)
            .map(([k, n]) => `${k} ${(n / add).toFixed(2)}/event`)
            .join(', ')}).`,
      );
      events = size;
    }

    // The single reads ask for the same event at every size (one of the first size's, with links).
    if (!single.id) {
      const { events } = (await api.listEvents({ query: { per_page: 50 } })).data;
      const pick = events.find((e) => e.venue && !Array.isArray(e.venue) && e.organizer.length > 0);
      single.id = Number(pick?.id ?? events[0]?.id);
      single.slug = (await api.getEvent({ path: { id: single.id } })).data.slug;
    }
    const { id: someId, slug } = single;

    // The last page full at every size: the listing's total made a multiple of the page size, leaving
    // out the single reads' event and the rare word's (their cases stay as they were).
    const rare = (await api.listEvents({ query: { search: RARE_WORD, per_page: 50 } })).data.events;
    const keep = new Set<number>([someId, ...rare.map((e) => e.id)]);
    const filled = await fillLastPage(base, api, keep);
    const totalPages = filled.pages;
    note(
      `Last page: ${filled.drafted} of the default listing's last events set to draft through the API (listing ${filled.before} -> ${filled.total} events, ${totalPages} full pages of ${PER_PAGE}; table still ${size} events).`,
    );

    // Category + venue: the venue with the most jazz events in the default listing, chosen once.
    if (!pair.venue) {
      for (const v of refs.venues) {
        const { total } = await listTotals(base, `?categories=jazz&venue=${v.id}&per_page=1`);
        if (total > pair.total || !pair.venue) Object.assign(pair, { venue: v.id, total, size });
      }
      note(
        `Category + venue: venue ${pair.venue}, the most jazz events in the default listing of the ${refs.venues.length} venues at ${size} (${pair.total})` +
          (pair.total < PER_PAGE
            ? `, fewer than a page of ${PER_PAGE}: its page 1 is not full at ${size}`
            : '') +
          '; kept at every size.',
      );
    } else {
      const { total } = await listTotals(base, `?categories=jazz&venue=${pair.venue}&per_page=1`);
      note(
        `Category + venue: venue ${pair.venue} (chosen at ${pair.size}) has ${total} jazz events at ${size}.`,
      );
    }
    const read: Array<Omit<Case, 'kind'>> = [
      { name: 'GET /events (default)', path: '/events', note: 'upcoming events, first page' },
      {
        name: 'GET /events?page=40',
        path: `/events?page=${Math.min(40, totalPages)}`,
        note: 'deep page of the default listing',
      },
      {
        name: 'GET /events?page=<last>',
        path: `/events?page=${totalPages}`,
        note: `last page (${totalPages} at ${size}), full: the fewest of the listing's last events drafted after seeding so its total is a multiple of ${PER_PAGE} (${filled.drafted} at ${size})`,
      },
      { name: 'GET /events?categories=jazz', path: '/events?categories=jazz', note: 'one leaf category' },
      {
        name: 'GET /events?categories=music',
        path: '/events?categories=music',
        note: 'parent category with 3 children',
      },
      { name: 'GET /events?tags=<id>', path: `/events?tags=${tagId}`, note: 'one tag (by ID)' },
      { name: 'GET /events?venue=<id>', path: `/events?venue=${venue}`, note: 'one venue' },
      { name: 'GET /events?organizer=<id>', path: `/events?organizer=${organizer}`, note: 'one organizer' },
      { name: 'GET /events?featured=true', path: '/events?featured=true', note: 'featured events' },
      {
        name: 'GET /events (one-week window)',
        path: `/events?start_date=${day(14)}&end_date=${day(20)}%2023:59:59`,
        note: 'seven days, two weeks ahead',
      },
      {
        name: 'GET /events?categories=jazz&venue=<id>',
        path: `/events?categories=jazz&venue=${pair.venue}`,
        note: `two filters together; the venue with the most jazz events at ${pair.size} (venue ${pair.venue}, ${pair.total} events), kept at every size`,
      },
      {
        name: `GET /events?search=${RARE_WORD}`,
        path: `/events?search=${RARE_WORD}`,
        note: `rare word (${RARE_COUNT} events at every size)`,
      },
      { name: 'GET /venues', path: '/venues', note: 'venue list, first page' },
      { name: 'GET /categories', path: '/categories', note: 'category list' },
      { name: 'GET /events/{id}', path: `/events/${someId}`, note: 'single event by ID' },
      { name: 'GET /events/by-slug/{slug}', path: `/events/by-slug/${slug}`, note: 'single event by slug' },
      { name: 'GET /tags', path: '/tags', note: `tag list (${tags} tags at ${size})` },
      {
        name: 'GET /events?tags=<slug>',
        path: '/events?tags=outdoor',
        note: `one tag by slug among ${tags}`,
      },
    ];
    const results = new Map<string, Figures>();
    for (const c of read)
      await pool(Array.from({ length: WARMUP }), CONCURRENCY, () =>
        fetch(`${base}${c.path}`).then((r) => r.arrayBuffer()),
      );
    for (const [i, c] of read.entries()) {
      process.stderr.write(`\r  ${size} events: case ${i + 1}/${read.length + 2} ${c.name.padEnd(50)}`);
      results.set(c.name, await measureRead(base, c));
    }

    // Writes through the API: creates, then an update of each created event.
    const writeBodies = seed.planEvents(refs, { count: WRITE_REQUESTS, seed: 5000 + round });
    const createdIds: number[] = [];
    process.stderr.write(
      `\r  ${size} events: case ${read.length + 1}/${read.length + 2} POST /events`.padEnd(80),
    );
    results.set(
      'POST /events (create)',
      await measureWrites(
        WRITE_REQUESTS,
        (i) =>
          api.createEvent({ body: writeBodies[i]! }).then((res) => {
            createdIds[i] = res.data.id;
            return res;
          }, answered),
        201,
      ),
    );
    process.stderr.write(
      `\r  ${size} events: case ${read.length + 2}/${read.length + 2} POST /events/{id}`.padEnd(80),
    );
    results.set(
      'POST /events/{id} (update)',
      await measureWrites(
        WRITE_REQUESTS,
        (i) =>
          api
            .updateEvent({
              path: { id: createdIds[i]! },
              body: {
                title: `Updated ${String(writeBodies[i]!.title)}`,
                description: '<p>Updated description.</p>',
                cost: '12',
              },
            })
            .catch(answered),
        200,
      ),
    );
    process.stderr.write('\n');
    events += WRITE_REQUESTS;
    if (round === 0)
      cases.push(
        ...read.map((c) => ({ ...c, kind: 'read' as const })),
        {
          name: 'POST /events (create)',
          kind: 'write',
          note: 'create an event (categories, tags, venue, organizers)',
        },
        { name: 'POST /events/{id} (update)', kind: 'write', note: 'update title, description and cost' },
      );
    bySize.set(size, results);
    const bad = [...results].filter(([, f]) => f.errors > 0);
    for (const [name, f] of bad) console.log(`  ! ${name}: ${f.errors} unexpected statuses at ${size}`);
    lastRound = { size, someId };
  }

  console.log(
    `\nAll cases (per request: means of calls, items read, RCU, WCU; ✓ = calls and RCU within 1.5x):\n`,
  );
  console.log(report.caseTable(cases, SIZES, bySize));

  // Handler time for a 50-event page at the largest size, in this process.
  const { measureHandlerTime } = await import('./handler-time');
  const ht = await measureHandlerTime(
    `http://bench.local/cal/events/v1`,
    'per_page=50',
    num('handler-iterations'),
  );
  console.log(
    `\nHandler time for GET /events?per_page=50 at ${lastRound.size} events (${ht.items} events on the page; DynamoDB excluded, median ${ht.dbMs.toFixed(1)} ms of it):\n`,
  );
  console.log(report.stageTable(ht.stages));

  await stopAll();
  const cs = num('cold-rounds') > 0 ? await cold() : { baseline: undefined, functions: [] };

  const results = report.json(SIZES, cases, bySize, cs.functions, {
    coldBaseline: cs.baseline,
    handlerTime: {
      query: 'per_page=50',
      size: lastRound.size,
      items: ht.items,
      dbMs: ht.dbMs,
      stages: ht.stages,
    },
    run: {
      commit: gitCommit(),
      date: new Date().toISOString().slice(0, 10),
      node: process.versions.node,
      requests: REQUESTS,
      write_requests: WRITE_REQUESTS,
      concurrency: CONCURRENCY,
      cold_rounds: num('cold-rounds'),
      setup,
    },
  });
  // A report is rendered from the results file it names, so that file is written too.
  const out = args.out ?? (args.report ? `bench/results/${SIZES.join('-')}.json` : undefined);
  if (out) {
    writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
    console.log(`\nWrote ${out}.`);
  }
  if (args.report) await writeReport(results, out!);
  console.log(`\nTotal ${secs(performance.now() - t0)}.`);
}

async function cold() {
  const { measureColdStart } = await import('./cold-start');
  const rounds = num('cold-rounds');
  const cs = await measureColdStart(rounds, console.log);
  console.log(
    `\nCold start (module init, median of ${rounds} fresh processes each; ✓ = within 1.3x of the bare client):\n`,
  );
  console.log(report.coldTable(cs.baseline, cs.functions));
  return cs;
}

async function load(): Promise<void> {
  const { runLoad } = await import('./load');
  const base = await startStack();
  const token = await signLocalToken(secret, 'administrator', 'bench', '2h');
  console.log(`Seeding the seed calendar (${num('events')} events, as npm run seed does)...`);
  const s = await seed.seedCalendar({ base, token, events: num('events'), seed: 42 });
  const id = s.events.ids[Math.floor(s.events.ids.length / 2)]!;
  const clients = num('clients');
  const seconds = num('seconds');
  console.log(`${clients} concurrent clients, ${seconds} s per case, client and stack in one process:\n`);
  const out = [
    await runLoad('GET /events', `${base}/events`, clients, seconds),
    await runLoad('GET /events/{id}', `${base}/events/${id}`, clients, seconds),
  ];
  console.log(report.loadTable(out));
}

/**
 * The importers' speed (bench/import.ts): results always written (to --out, else
 * bench/results/import-<N>.json), and with --report rendered into that document.
 */
async function importBench(): Promise<void> {
  const { runImportBench, renderImportReport, IMPORT_MARKERS } = await import('./import');
  const base = await startStack();
  const token = await signLocalToken(secret, 'administrator', 'bench', '12h');
  const events = num('import-events');
  const results = await runImportBench({ base, token, events, commit: gitCommit(), log: console.log });
  const out = args.out ?? `bench/results/import-${events}.json`;
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nWrote ${out}.`);
  const block = renderImportReport(results, out);
  if (!args.report) return void console.log(`\n${block}`);
  const md = await import('./report-markdown');
  const existing = existsSync(args.report) ? readFileSync(args.report, 'utf8') : undefined;
  writeFileSync(args.report, md.withReport(existing, block, IMPORT_MARKERS));
  console.log(`Wrote the report of ${out} into ${args.report}.`);
}

/**
 * The public pages' answer times (bench/pages.ts): results always written (to --out, else
 * bench/results/pages.json), and with --report rendered into that document.
 */
async function pagesBench(): Promise<void> {
  const { seedPages, measurePage, pagesTable } = await import('./pages');
  const { cpus, loadavg } = await import('node:os');
  const load_average = loadavg().map((l) => Math.round(l * 100) / 100);
  const base = await startStack();
  const token = await signLocalToken(secret, 'administrator', 'bench', '2h');
  const pages = await seedPages(apiClient(base, token));
  const origin = new URL(base).origin;
  console.log(`${REQUESTS} requests per page, one at a time, after ${WARMUP} unmeasured ones:`);
  const measured = [];
  for (const p of pages) measured.push(await measurePage(origin, p, REQUESTS, WARMUP));
  const results: PagesResults = {
    pages: measured,
    run: {
      commit: gitCommit(),
      date: new Date().toISOString().slice(0, 10),
      node: process.versions.node,
      warmup: WARMUP,
      load_average,
      cores: cpus().length,
    },
  };
  console.log(`\n${pagesTable(results)}`);
  const out = args.out ?? 'bench/results/pages.json';
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nWrote ${out}.`);
  await writeReport(results, out);
}

/**
 * What recurring events cost (bench/series.ts): results always written (to --out, else
 * bench/results/series-<sizes>.json), and with --report rendered into that document.
 */
async function seriesBench(): Promise<void> {
  const { runSeriesBench } = await import('./series');
  const base = await startStack();
  const token = await signLocalToken(secret, 'administrator', 'bench', '12h');
  const api = apiClient(base, token);
  const terms = await seed.seedTerms(api, 8);
  const linked = await seed.seedLinkedPosts(api, 8);
  const results = await runSeriesBench({
    base,
    token,
    sizes: SIZES,
    refs: {
      categories: terms.categories,
      tags: terms.tags,
      venues: linked.venues,
      organizers: linked.organizers,
      notes: linked.notes,
    },
    creates: num('series-creates'),
    extendSeries: num('extend-series'),
    concurrency: CONCURRENCY,
    commit: gitCommit(),
    requests: REQUESTS,
    warmup: WARMUP,
    measureRead: (path) => measureRead(base, { path }),
    bulk: async (bodies, label) => {
      const bulk = { handler: 'functions/events/create-event', path: '/events', token };
      const r = await bulkCreate(bodies, {
        ...bulk,
        concurrency: num('bulk-concurrency'),
        writers: num('writers'),
        onProgress: progressLine(label),
      });
      process.stderr.write('\n');
      console.log(`Seeded ${bodies.length} single events in bulk in ${r.seconds.toFixed(1)} s.`);
    },
    log: console.log,
  });
  const out = args.out ?? `bench/results/series-${SIZES.join('-')}.json`;
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nWrote ${out}.`);
  await writeReport(results, out);
}

/**
 * What tickets cost (bench/tickets.ts): registrations alone and racing for few seats, and the
 * `ticketed=` lists at each size. Results always written (to --out, else
 * bench/results/tickets-<sizes>.json), and with --report rendered into that document.
 */
async function ticketsBench(): Promise<void> {
  const { runTicketsBench } = await import('./tickets');
  const base = await startStack();
  const token = await signLocalToken(secret, 'administrator', 'bench', '12h');
  const api = apiClient(base, token);
  const terms = await seed.seedTerms(api, 8);
  const linked = await seed.seedLinkedPosts(api, 8);
  const results = await runTicketsBench({
    base,
    token,
    sizes: SIZES,
    refs: {
      categories: terms.categories,
      tags: terms.tags,
      venues: linked.venues,
      organizers: linked.organizers,
      notes: linked.notes,
    },
    registrations: num('registrations'),
    racers: num('racers'),
    seats: num('seats'),
    share: num('ticket-share'),
    concurrency: CONCURRENCY,
    commit: gitCommit(),
    requests: REQUESTS,
    warmup: WARMUP,
    measureRead: (path) => measureRead(base, { path }),
    bulk: async (bodies, label) => {
      const bulk = { handler: 'functions/events/create-event', path: '/events', token };
      const r = await bulkCreate(bodies, {
        ...bulk,
        concurrency: num('bulk-concurrency'),
        writers: num('writers'),
        onProgress: progressLine(label),
      });
      process.stderr.write('\n');
      console.log(`Seeded ${bodies.length} events in bulk in ${r.seconds.toFixed(1)} s.`);
      return r.ids;
    },
    log: console.log,
  });
  const out = args.out ?? `bench/results/tickets-${SIZES.join('-')}.json`;
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nWrote ${out}.`);
  await writeReport(results, out);
}

/**
 * How soon a webhook subscriber is told, and a create's cost with and without one (bench/webhooks.ts):
 * results always written (to --out, else bench/results/webhooks.json), and with --report rendered into
 * that document.
 */
async function webhooksBench(): Promise<void> {
  const { runWebhooksBench } = await import('./webhooks');
  const { startWebhookEngine } = await import('../local/webhooks');
  const base = await startStack();
  const token = await signLocalToken(secret, 'administrator', 'bench', '2h');
  const results = await runWebhooksBench({
    base,
    token,
    rate: num('rate'),
    seconds: num('seconds'),
    commit: gitCommit(),
    startEngine: async () => {
      const engine = await startWebhookEngine({
        endpoint: process.env.DYNAMODB_ENDPOINT!,
        tableName: process.env.TABLE_NAME!,
      });
      return engine.stop;
    },
    log: console.log,
  });
  const l = results.latency_ms;
  console.log(
    `${results.delivered} of ${results.writes} creates delivered (${results.missing} missing, ${results.write_errors} not answered 201): ` +
      `p50 ${l.p50} ms, p90 ${l.p90} ms, p99 ${l.p99} ms, max ${l.max} ms from the 201 to the receiver's 200; ${results.deliveries_per_second} deliveries a second; ` +
      `creates answered in p50 ${results.create_ms.p50} ms, p99 ${results.create_ms.p99} ms. ` +
      `201 to dispatched p50 ${results.dispatch_ms.p50} ms, p99 ${results.dispatch_ms.p99} ms; dispatched to sent p50 ${results.send_ms.p50} ms, p99 ${results.send_ms.p99} ms.`,
  );
  const out = args.out ?? 'bench/results/webhooks.json';
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nWrote ${out}.`);
  await writeReport(results, out);
}

/** The idle stack's CPU (bench/idle.ts), printed; with --idle its results are written, and rendered with --report. */
async function idleBench(write: boolean): Promise<void> {
  const { measureIdleStack, idleLine } = await import('./idle');
  const results = await measureIdleStack({
    seconds: num('seconds'),
    events: num('idle-events'),
    commit: gitCommit(),
    log: console.log,
  });
  console.log(`\n${idleLine(results)}`);
  if (!write) return;
  const out = args.out ?? 'bench/results/idle.json';
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nWrote ${out}.`);
  await writeReport(results, out);
}

/** The cold start alone; with --report or --out its results are written, as a full run's are. */
async function coldOnly(): Promise<void> {
  const cs = await cold();
  // Rounded as a full run's results are.
  const { coldStart, coldBaseline } = report.json([], [], new Map(), cs.functions, {
    coldBaseline: cs.baseline,
  });
  const results: ColdResults = {
    coldStart,
    coldBaseline,
    run: {
      commit: gitCommit(),
      date: new Date().toISOString().slice(0, 10),
      node: process.versions.node,
      cold_rounds: num('cold-rounds'),
    },
  };
  const out = args.out ?? (args.report ? 'bench/results/cold-start.json' : undefined);
  if (out) {
    writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
    console.log(`\nWrote ${out}.`);
  }
  if (args.report) await writeReport(results, out!);
}

try {
  if (args['cold-only']) await coldOnly();
  else if (args.import) await importBench();
  else if (args.series) await seriesBench();
  else if (args.tickets) await ticketsBench();
  else if (args.pages) await pagesBench();
  else if (args.webhooks) await webhooksBench();
  else if (args.idle) await idleBench(true);
  else if (args.load) await load();
  else {
    await bench();
    // The full run ends with the idle stack's cost, printed (a stack of its own).
    await idleBench(false);
  }
} catch (e) {
  console.error(`\nBench failed: ${e instanceof SetupError ? e.message : ((e as Error).stack ?? e)}`);
  process.exitCode = 1;
} finally {
  await stopAll();
}
