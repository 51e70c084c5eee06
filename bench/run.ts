/**
 * `npm run bench`: how the read paths behave as the table grows. Self-contained: it starts DynamoDB
 * Local (in memory) and the local gateway in this process on free ports with a fresh table, seeds
 * events through the API (local/seed.ts), measures fixed request loops against 127.0.0.1, prints the
 * figures and stops everything. Never part of `npm test`; it prints numbers and asserts nothing.
 *
 *   npm run bench
 *   npm run bench -- --sizes 1000,5000 --requests 200 --concurrency 4
 *
 * Each size is reached by adding events to the same table (1000, then 4000 more for 5000). Every case
 * sends the same anonymous request `--requests` times, `--concurrency` at a time, after a short
 * warm-up. DynamoDB calls and consumed read capacity per request are counted with a middleware added
 * in this process to the shared document client (no change to shared/).
 */

import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,5000' },
    requests: { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '4' },
    warmup: { type: 'string', default: '20' },
    'seed-concurrency': { type: 'string', default: '8' },
  },
});
const SIZES = args.sizes.split(',').map(Number);
const REQUESTS = Number(args.requests);
const CONCURRENCY = Number(args.concurrency);
const WARMUP = Number(args.warmup);
const SEED_CONCURRENCY = Number(args['seed-concurrency']);
if (
  SIZES.some((n, i) => !Number.isInteger(n) || n < 1 || (i > 0 && n <= SIZES[i - 1]!)) ||
  !(REQUESTS >= 1) ||
  !(CONCURRENCY >= 1) ||
  !(WARMUP >= 0)
) {
  console.error(
    'Usage: npm run bench -- [--sizes 1000,5000] [--requests 200] [--concurrency 4] [--warmup 20]',
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
});

const { startDynamo, ensureTable } = await import('../local/dynamo');
const seed = await import('../local/seed');
const { signLocalToken } = await import('../local/token');

// ---------------------------------------------------------------------------------------------------
// Stack lifecycle

let server: Server | undefined;
let dynamo: { stop: () => Promise<void> } | undefined;
let stopping: Promise<void> | undefined;
const stopAll = () =>
  (stopping ??= (async () => {
    if (server) {
      const s = server;
      await new Promise<void>((ok) => {
        s.close(() => ok());
        (s as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
    }
    await dynamo?.stop();
  })());
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    console.error(`\n${signal}: stopping`);
    void stopAll().finally(() => process.exit(130));
  });

// ---------------------------------------------------------------------------------------------------
// DynamoDB accounting (a middleware on the shared client, in this process only)

const usage = { calls: 0, rcu: 0, wcu: 0, items: 0 };
type Capacity = { CapacityUnits?: number; ReadCapacityUnits?: number; WriteCapacityUnits?: number };
type Output = {
  ConsumedCapacity?: Capacity | Capacity[];
  ScannedCount?: number;
  Item?: unknown;
  Responses?: Record<string, unknown[]> | unknown[];
};
const DATA_PLANE =
  /^(Get|Put|Update|Delete|BatchGet|BatchWrite|TransactGet|TransactWrite)(Item|Items)?Command$|^(Query|Scan)Command$/;
const WRITES = /^(Put|Update|Delete|BatchWrite|TransactWrite)/;

/** Items a read returned or examined: Query / Scan ScannedCount, BatchGet / TransactGet responses, GetItem's item. */
function itemsRead(o: Output): number {
  if (typeof o.ScannedCount === 'number') return o.ScannedCount;
  if (Array.isArray(o.Responses)) return o.Responses.length;
  if (o.Responses) return Object.values(o.Responses).reduce((n, list) => n + list.length, 0);
  return o.Item ? 1 : 0;
}

async function instrument(): Promise<void> {
  const { ddb } = await import('../shared/db/client');
  ddb.middlewareStack.add(
    (next, context) => async (a) => {
      const name = String((context as { commandName?: string }).commandName ?? '');
      // Set before the document client marshals the input, which keeps top-level fields as they are.
      if (DATA_PLANE.test(name)) (a.input as Record<string, unknown>).ReturnConsumedCapacity = 'TOTAL';
      const out = await next(a);
      usage.calls++;
      const o = out.output as Output;
      const consumed = o.ConsumedCapacity;
      for (const c of consumed === undefined ? [] : Array.isArray(consumed) ? consumed : [consumed]) {
        const units = c.CapacityUnits ?? (c.ReadCapacityUnits ?? 0) + (c.WriteCapacityUnits ?? 0);
        if (WRITES.test(name)) usage.wcu += units;
        else usage.rcu += units;
      }
      if (!WRITES.test(name)) usage.items += itemsRead(o);
      return out;
    },
    { step: 'initialize', name: 'benchConsumedCapacity' },
  );
}

// ---------------------------------------------------------------------------------------------------
// Measurement

interface Case {
  name: string;
  path: string;
  /** What the case exercises (printed once). */
  note: string;
}

interface Result {
  name: string;
  p50: number;
  p95: number;
  mean: number;
  calls: number;
  rcu: number;
  items: number;
  total: string;
  errors: number;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;

async function measure(base: string, c: Case): Promise<Result> {
  const get = async () => {
    const res = await fetch(`${base}${c.path}`);
    await res.arrayBuffer();
    return res;
  };
  const times: number[] = [];
  let errors = 0;
  let total = '';
  const before = { ...usage };
  await seed.pool(
    Array.from({ length: REQUESTS }, (_, i) => i),
    CONCURRENCY,
    async () => {
      const t0 = performance.now();
      const res = await get();
      times.push(performance.now() - t0);
      if (res.status !== 200) errors++;
      total ||= res.headers.get('x-cal-total') ?? '-';
    },
  );
  times.sort((a, b) => a - b);
  return {
    name: c.name,
    p50: quantile(times, 0.5),
    p95: quantile(times, 0.95),
    mean: times.reduce((a, b) => a + b, 0) / times.length,
    calls: (usage.calls - before.calls) / REQUESTS,
    rcu: (usage.rcu - before.rcu) / REQUESTS,
    items: (usage.items - before.items) / REQUESTS,
    total,
    errors,
  };
}

const ms = (n: number) => n.toFixed(1);
const pad = (s: string, n: number) => s.padEnd(n);
const lpad = (s: string, n: number) => s.padStart(n);

function table(headers: string[], rows: string[][], left: number[] = [0]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (left.includes(i) ? pad(c, widths[i]!) : lpad(c, widths[i]!))).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

// ---------------------------------------------------------------------------------------------------
// Run

async function main(): Promise<void> {
  const t0 = performance.now();
  dynamo = await startDynamo({ port: dynamoPort });
  await ensureTable(process.env.DYNAMODB_ENDPOINT!, process.env.TABLE_NAME!);
  await instrument();
  const { startGateway } = await import('../local/gateway');
  server = await startGateway(0, '127.0.0.1');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cal/events/v1`;
  console.log(
    `Stack up in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${base} (DynamoDB Local in memory, table ${process.env.TABLE_NAME})`,
  );
  console.log(
    `${REQUESTS} requests per case, ${CONCURRENCY} at a time, after a warm-up pass of ${WARMUP} requests per case; times in ms.\n`,
  );

  const api = seed.apiClient(base, await signLocalToken(secret, 'administrator', 'bench'));
  const terms = await seed.seedTerms(api, SEED_CONCURRENCY);
  const linked = await seed.seedLinkedPosts(api, SEED_CONCURRENCY);
  const refs = {
    categories: terms.categories,
    tags: terms.tags,
    venues: linked.venues,
    organizers: linked.organizers,
    notes: linked.notes,
  };
  for (const n of refs.notes) console.log(`Note: ${n}`);

  const results = new Map<number, Result[]>();
  const cases = new Map<number, Case[]>();
  let seeded = 0;
  let someId = 0;
  for (const [round, size] of SIZES.entries()) {
    const add = size - seeded;
    const bodies = seed.planEvents(refs, { count: add, seed: 1000 + round });
    const w0 = { ...usage };
    const s0 = performance.now();
    const created = await seed.seedEvents(api, bodies, SEED_CONCURRENCY);
    const secs = (performance.now() - s0) / 1000;
    seeded = size;
    someId ||= created.ids[Math.floor(created.ids.length / 2)]!;
    console.log(
      `Seeded ${add} events (table now ${size}) in ${secs.toFixed(1)} s: ${(add / secs).toFixed(0)} events/s, ` +
        `${((usage.calls - w0.calls) / add).toFixed(1)} DynamoDB calls and ${((usage.wcu - w0.wcu) / add).toFixed(1)} WCU per event` +
        `${api.retries ? `, ${api.retries} retries so far` : ''}.`,
    );

    const listing = await fetch(`${base}/events`);
    const totalPages = Number(listing.headers.get('x-cal-totalpages'));
    const deep = Math.min(40, totalPages);
    const list: Case[] = [
      {
        name: 'GET /events (default)',
        path: '/events',
        note: 'tallied: day tallies + first page of the start index',
      },
      {
        name: 'GET /events?categories=jazz',
        path: '/events?categories=jazz',
        note: 'tallied: one leaf category scope',
      },
      ...(refs.venues.length > 0
        ? [
            {
              name: 'GET /events?venue=<id>',
              path: `/events?venue=${refs.venues[0]!.id}`,
              note: 'tallied: one venue scope',
            },
          ]
        : []),
      {
        name: 'GET /events?categories=music',
        path: '/events?categories=music',
        note: 'not tallied: parent category (3 children), reads every linked row',
      },
      {
        name: 'GET /events?search=acoustic',
        path: '/events?search=acoustic',
        note: 'not tallied: reads every candidate in the window',
      },
      {
        name: `GET /events?page=${deep}`,
        path: `/events?page=${deep}`,
        note: `tallied: reads ${deep * 10} rows (fixed page)`,
      },
      {
        name: 'GET /events?page=<last>',
        path: `/events?page=${totalPages}`,
        note: `tallied: last page (${totalPages} at this size), reads every row`,
      },
      { name: 'GET /categories', path: '/categories', note: 'term list' },
      { name: 'GET /events/{id}', path: `/events/${someId}`, note: 'single read' },
    ];
    cases.set(size, list);
    // Warm-up over every case first (JIT, module loading, DynamoDB Local's own caches), unrecorded.
    for (const c of list)
      await seed.pool(Array.from({ length: WARMUP }), CONCURRENCY, () =>
        fetch(`${base}${c.path}`).then((r) => r.arrayBuffer()),
      );
    const out: Result[] = [];
    for (const c of list) out.push(await measure(base, c));
    results.set(size, out);
    console.log(`\n${size} events in the table:`);
    console.log(
      table(
        [
          'case',
          'p50',
          'p95',
          'mean',
          'ddb calls/req',
          'items read/req',
          'RCU/req',
          'X-Cal-Total',
          'non-200',
        ],
        out.map((r) => [
          r.name,
          ms(r.p50),
          ms(r.p95),
          ms(r.mean),
          r.calls.toFixed(1),
          r.items.toFixed(0),
          r.rcu.toFixed(1),
          r.total,
          String(r.errors),
        ]),
      ),
    );
    console.log();
  }

  if (SIZES.length > 1) {
    const [small, large] = [SIZES[0]!, SIZES[SIZES.length - 1]!];
    const a = results.get(small)!;
    const b = results.get(large)!;
    console.log(
      `Scaling ${large} / ${small} events (x${(large / small).toFixed(1)} data; ~1.0 = does not grow with the table):`,
    );
    console.log(
      table(
        [
          'case',
          `p50 @${small}`,
          `p50 @${large}`,
          'p50 ratio',
          'mean ratio',
          'items ratio',
          'RCU ratio',
          'path',
        ],
        b.map((r, i) => {
          const s = a.find((x) => x.name === r.name) ?? a[i]!;
          const note = cases.get(large)![i]!.note;
          const ratio = (x: number, y: number) => (y > 0 ? (x / y).toFixed(2) : '-');
          return [
            r.name,
            ms(s.p50),
            ms(r.p50),
            ratio(r.p50, s.p50),
            ratio(r.mean, s.mean),
            ratio(r.items, s.items),
            ratio(r.rcu, s.rcu),
            note,
          ];
        }),
        [0, 7],
      ),
    );
    console.log(
      '\n(The deep and last page cases keep their names across sizes but the last page moves with the size.)',
    );
  }
  console.log(`\nTotal ${((performance.now() - t0) / 1000).toFixed(1)} s.`);
}

try {
  await main();
} catch (e) {
  console.error(`Bench failed: ${(e as Error).stack ?? e}`);
  process.exitCode = 1;
} finally {
  await stopAll();
}
