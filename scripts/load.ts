import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type CalClient, CalApiError, createClient, type Reply, type Schemas } from '../client/src';
import { freePort } from '../local/dynamo';
import { signLocalToken } from '../local/token';

/**
 * `npm run load`: a mixed workload against the local stack, then proof that nothing was lost.
 *
 *   70% reads: event lists (pages, a category filter, search), venue and category lists, single events
 *   and venues. 30% writes: event creates (with a new tag each), partial updates, trashes and
 *   permanent deletes, venue creates. Each worker writes only records it created, so the last write it
 *   had acknowledged is what each record must hold.
 *
 * After the run every acknowledged write is read back (as an editor): records present and whole with
 * the last acknowledged values, trashed ones in the trash, deleted ones gone (404). Prints throughput,
 * p50 / p99 latency, errors by status and code; exits 1 on any 5xx, any dropped request or any lost
 * write.
 *
 *   npm run load                                   # starts its own stack (in memory) on a free port
 *   npm run load -- --concurrency 50 --duration 120
 *   npm run load -- --url http://localhost:3000/cal/events/v1 [--token T]   # a running stack
 */
const USAGE =
  'usage: npm run load -- [--concurrency N] [--duration SECONDS] [--url API_ROOT] [--token JWT] [--seed-events N]';

const OPTIONS = {
  concurrency: { type: 'string', default: '20' },
  duration: { type: 'string', default: '60' },
  url: { type: 'string' },
  token: { type: 'string' },
  'seed-events': { type: 'string', default: '40' },
  help: { type: 'boolean', default: false },
} as const;

const { values: args } = (() => {
  try {
    return parseArgs({ options: OPTIONS, strict: true });
  } catch (e) {
    console.error(`${(e as Error).message}. ${USAGE}`);
    process.exit(2);
  }
})();
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
const positive = (name: string, v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`--${name} must be a positive whole number, got ${v}. ${USAGE}`);
    process.exit(2);
  }
  return n;
};
const CONCURRENCY = positive('concurrency', args.concurrency!);
const DURATION_S = positive('duration', args.duration!);
const SEED_EVENTS = positive('seed-events', args['seed-events']!);
const REQUEST_TIMEOUT_MS = 30_000;
const ROOT = resolve(import.meta.dirname, '..');

type EventBody = Schemas['CreateEventBody'];

// ---------------------------------------------------------------------------------------------------
// The stack: a running one (--url), or `npm start`'s (local/start.ts over startLocalStack) in memory, in
// a process of its own so that its handlers do not share this generator's event loop and CPU time.

interface Target {
  base: string;
  token: string;
  stop: () => Promise<void>;
}

/** The typed client of a target, with its editor's token. */
const clientOf = (t: Target): CalClient => createClient({ baseUrl: t.base, token: t.token });

async function startStack(): Promise<Target> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'cal-load-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    CAL_IN_MEMORY: '1',
    CAL_DATA_DIR: dataDir,
  };
  for (const name of ['DYNAMODB_ENDPOINT', 'TABLE_NAME', 'AUTH_LOCAL_SECRET']) delete env[name];
  process.stdout.write('Starting the local stack (in memory)… ');
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'local/start.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const ready = await new Promise<boolean>((ok) => {
    const deadline = setTimeout(() => ok(false), 180_000);
    const check = setInterval(() => {
      if (/Event calendar API ready at/.test(output)) done(true);
      else if (child.exitCode !== null) done(false);
    }, 100);
    const done = (v: boolean) => {
      clearTimeout(deadline);
      clearInterval(check);
      ok(v);
    };
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((ok) => child.once('exit', ok));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  if (!ready) {
    await stop();
    console.error(`\nThe local stack did not start (is Java installed?):\n${output}`);
    process.exit(2);
  }
  console.log(`ready on port ${port}.`);
  const secret = readFileSync(join(dataDir, 'local-jwt-secret'), 'utf8').trim();
  return {
    base: `http://127.0.0.1:${port}/cal/events/v1`,
    token: await signLocalToken(secret, 'editor', 'user-load'),
    stop,
  };
}

async function remoteTarget(url: string): Promise<Target> {
  let token = args.token ?? process.env.CAL_TOKEN;
  if (!token) {
    // A local `npm start` keeps its issuer's secret here.
    const file = join(process.env.CAL_DATA_DIR ?? join(ROOT, '.data'), 'local-jwt-secret');
    if (!existsSync(file)) {
      console.error(`--url needs an editor's token: --token T or CAL_TOKEN (no ${file} to sign one with).`);
      process.exit(2);
    }
    token = await signLocalToken(readFileSync(file, 'utf8').trim(), 'editor', 'user-load');
  }
  return { base: url.replace(/\/+$/, ''), token, stop: async () => {} };
}

// ---------------------------------------------------------------------------------------------------
// Requests and their figures

type Kind = 'read' | 'write';
interface Answer<T> {
  status: number;
  data?: T;
}
const latencies: Record<Kind, number[]> = { read: [], write: [] };
/** Non-2xx answers by "status code" (and dropped requests as "no answer: reason"). */
const failures = new Map<string, number>();
let requests = 0;

/**
 * Times one call of the client. An error answer is counted by status and code, a dropped request as
 * "no answer"; a list's 404 is a page past its end (`list`), not a failure.
 */
async function send<T>(
  kind: Kind,
  call: (signal: AbortSignal) => Promise<Reply<T>>,
  list = false,
): Promise<Answer<T>> {
  const started = performance.now();
  requests++;
  const fail = (key: string) => failures.set(key, (failures.get(key) ?? 0) + 1);
  try {
    const res = await call(AbortSignal.timeout(REQUEST_TIMEOUT_MS));
    latencies[kind].push(performance.now() - started);
    return res;
  } catch (e) {
    if (!(e instanceof CalApiError)) {
      fail(`no answer: ${(e as Error).name}`);
      return { status: 0 };
    }
    latencies[kind].push(performance.now() - started);
    if (!(list && e.status === 404)) fail(`${e.status} ${e.code}`);
    return { status: e.status };
  }
}

// ---------------------------------------------------------------------------------------------------
// What each worker wrote and had acknowledged

interface Written {
  id: number;
  title: string;
  excerpt: string;
  tag: string;
  state: 'live' | 'trash' | 'deleted';
}
const written: Written[] = [];

function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const shared = { events: [] as number[], venues: [] as number[], categories: [] as number[] };

async function seed(api: CalClient): Promise<void> {
  process.stdout.write(`Seeding ${SEED_EVENTS} events… `);
  for (let i = 0; i < 5; i++) {
    const c = await send('write', (signal) =>
      api.createCategory({ body: { name: `Load Category ${i} ${Date.now()}` }, signal }),
    );
    if (c.data) shared.categories.push(c.data.id);
    const v = await send('write', (signal) =>
      api.createVenue({ body: { venue: `Load Hall ${i}`, city: 'Paris' }, signal }),
    );
    if (v.data) shared.venues.push(v.data.id);
  }
  for (let i = 0; i < SEED_EVENTS; i++) {
    const e = await send('write', (signal) =>
      api.createEvent({ body: eventBody(`Load Seed ${i}`, i), signal }),
    );
    if (e.data) shared.events.push(e.data.id);
  }
  if (shared.events.length === 0) {
    console.error(`\nSeeding failed: ${JSON.stringify([...failures])}. Is the token an editor's?`);
    throw new Error('seeding failed');
  }
  latencies.read.length = 0;
  latencies.write.length = 0;
  failures.clear();
  requests = 0;
  console.log('done.');
}

function eventBody(title: string, n: number, extra: Partial<EventBody> = {}): EventBody {
  const day = String((n % 28) + 1).padStart(2, '0');
  return {
    title,
    start_date: `2035-05-${day} 19:00`,
    end_date: `2035-05-${day} 22:00`,
    categories: shared.categories.length ? [shared.categories[n % shared.categories.length]!] : [],
    venue: shared.venues.length ? shared.venues[n % shared.venues.length] : undefined,
    ...extra,
  };
}

async function worker(api: CalClient, w: number, until: number): Promise<void> {
  const random = rng(1000 + w);
  const mine: Written[] = [];
  const pick = <T>(a: readonly T[]) => a[Math.floor(random() * a.length)]!;
  let n = 0;
  while (Date.now() < until) {
    n++;
    const r = random();
    if (r < 0.7) {
      // Reads: lists and single records.
      const q = random();
      const may = { start_date: '2035-05-01', end_date: '2035-05-31' };
      if (q < 0.25) {
        const page = 1 + Math.floor(random() * 3);
        await send('read', (signal) => api.listEvents({ query: { ...may, page }, signal }), true);
      } else if (q < 0.35) {
        const categories = [pick(shared.categories)];
        await send('read', (signal) => api.listEvents({ query: { ...may, categories }, signal }), true);
      } else if (q < 0.42)
        await send('read', (signal) => api.listEvents({ query: { ...may, search: 'load' }, signal }), true);
      else if (q < 0.5)
        await send('read', (signal) => api.listVenues({ query: { per_page: 20 }, signal }), true);
      else if (q < 0.57)
        await send('read', (signal) => api.listCategories({ query: { hide_empty: false }, signal }), true);
      else if (q < 0.9) {
        const id = pick(shared.events);
        await send('read', (signal) => api.getEvent({ path: { id }, signal }));
      } else {
        const id = pick(shared.venues);
        await send('read', (signal) => api.getVenue({ path: { id }, signal }));
      }
      continue;
    }
    // Writes: creates, updates, trashes and deletes of this worker's own records.
    const live = mine.filter((m) => m.state === 'live');
    const q = random();
    if (q < 0.4 || live.length < 3) {
      const title = `Load ${w}.${n}`;
      const tag = `load-tag-${w}-${n}`;
      const body = eventBody(title, n, { tags: [tag], excerpt: 'v0' });
      const res = await send('write', (signal) => api.createEvent({ body, signal }));
      if (res.data) {
        const rec: Written = { id: res.data.id, title, excerpt: 'v0', tag, state: 'live' };
        mine.push(rec);
        written.push(rec);
      }
    } else if (q < 0.8) {
      const rec = pick(live);
      const excerpt = `v${n}`;
      const res = await send('write', (signal) =>
        api.updateEvent({ path: { id: rec.id }, body: { excerpt }, signal }),
      );
      if (res.status === 200) rec.excerpt = excerpt;
    } else if (q < 0.9) {
      const rec = pick(live);
      const res = await send('write', (signal) => api.deleteEvent({ path: { id: rec.id }, signal }));
      if (res.status === 200) rec.state = 'trash';
    } else if (q < 0.95) {
      const rec = pick(live);
      const res = await send('write', (signal) =>
        api.deleteEvent({ path: { id: rec.id }, query: { force: true }, signal }),
      );
      if (res.status === 200) rec.state = 'deleted';
    } else {
      const body = { venue: `Load Venue ${w}.${n}`, city: 'Lyon' };
      await send('write', (signal) => api.createVenue({ body, signal }));
    }
  }
}

/** Every acknowledged write, read back: the problems found. */
async function verify(api: CalClient): Promise<string[]> {
  const problems: string[] = [];
  let next = 0;
  const check = async () => {
    while (next < written.length) {
      const rec = written[next++]!;
      const res = await send('read', (signal) => api.getEvent({ path: { id: rec.id }, signal }));
      if (rec.state === 'deleted') {
        if (res.status !== 404) problems.push(`event ${rec.id} deleted, but GET answers ${res.status}`);
        continue;
      }
      const e = res.data;
      if (!e) {
        problems.push(`event ${rec.id} (${rec.title}) lost: GET answers ${res.status}`);
        continue;
      }
      const excerpt = String(e.excerpt ?? '')
        .replace(/<[^>]+>/g, '')
        .trim();
      const status = rec.state === 'trash' ? 'trash' : 'publish';
      const tags = (e.tags ?? []).map((x) => x.slug);
      if (e.title !== rec.title)
        problems.push(`event ${rec.id}: title "${e.title}", acknowledged "${rec.title}"`);
      if (excerpt !== rec.excerpt)
        problems.push(`event ${rec.id}: excerpt "${excerpt}", acknowledged "${rec.excerpt}"`);
      if (e.status !== status) problems.push(`event ${rec.id}: status ${e.status}, acknowledged ${status}`);
      if (tags.join() !== rec.tag)
        problems.push(`event ${rec.id}: tags ${tags.join()}, acknowledged ${rec.tag}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, 20) }, check));
  return problems;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const ms = (v: number) => `${v.toFixed(1)} ms`;

async function main(): Promise<number> {
  const t = args.url ? await remoteTarget(args.url) : await startStack();
  const api = clientOf(t);
  try {
    await seed(api);
    console.log(`Running ${CONCURRENCY} workers for ${DURATION_S} s (70% reads, 30% writes)…`);
    const started = Date.now();
    const until = started + DURATION_S * 1000;
    const progress = setInterval(() => {
      const s = Math.round((Date.now() - started) / 1000);
      console.log(
        `  ${s} s: ${requests} requests, ${[...failures.values()].reduce((a, b) => a + b, 0)} not 2xx`,
      );
    }, 10_000);
    await Promise.all(Array.from({ length: CONCURRENCY }, (_, w) => worker(api, w, until)));
    clearInterval(progress);
    const elapsed = (Date.now() - started) / 1000;
    const total = requests;
    const failuresDuringRun = new Map(failures);
    // The figures are the run's alone: the re-read below is not part of the workload.
    const all = [...latencies.read, ...latencies.write].sort((x, y) => x - y);
    const reads = [...latencies.read].sort((x, y) => x - y);
    const writes = [...latencies.write].sort((x, y) => x - y);

    console.log(`Re-reading ${written.length} events written and acknowledged…`);
    const problems = await verify(api);

    const line = (name: string, l: number[]) =>
      `  ${name.padEnd(7)} ${String(l.length).padStart(7)}   p50 ${ms(percentile(l, 50)).padStart(9)}   p99 ${ms(percentile(l, 99)).padStart(9)}`;
    console.log('');
    console.log(
      `Requests: ${total} in ${elapsed.toFixed(1)} s = ${(total / elapsed).toFixed(1)} req/s (concurrency ${CONCURRENCY})`,
    );
    console.log(line('all', all));
    console.log(line('reads', reads));
    console.log(line('writes', writes));
    const byState = (s: Written['state']) => written.filter((w) => w.state === s).length;
    console.log(
      `Writes acknowledged: ${written.length} events created (${byState('live')} live, ${byState('trash')} trashed, ${byState('deleted')} deleted)`,
    );
    const errorLines = [...failuresDuringRun].sort();
    console.log(`Errors by status: ${errorLines.length === 0 ? 'none' : ''}`);
    for (const [key, count] of errorLines) console.log(`  ${key}: ${count}`);
    console.log(`Lost writes: ${problems.length}`);
    for (const p of problems.slice(0, 20)) console.log(`  ${p}`);
    const serverErrors = errorLines.filter(([key]) => /^(5\d\d|no answer)/.test(key));
    const pass = serverErrors.length === 0 && problems.length === 0;
    console.log(pass ? 'PASS: no 5xx, no dropped request, no lost write.' : 'FAIL: see above.');
    return pass ? 0 : 1;
  } finally {
    await t.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (e: Error) => {
    console.error(`Load run failed: ${e.message}`);
    process.exit(2);
  },
);
