/**
 * `npm run lighthouse`: Lighthouse's performance, accessibility, best-practices and SEO scores of the
 * calendar page and of an event page, with the mobile and the desktop preset (issue 29).
 *
 *   npm run lighthouse                      # starts its own stack (in memory), seeds it, measures
 *   npm run lighthouse -- --url http://localhost:3000   # a running stack (seeded first when empty)
 *   npm run lighthouse -- --from bench/results/lighthouse.json   # renders a saved run again
 *   npm run lighthouse -- --save test-results/lighthouse   # also keeps each run's full report (JSON)
 *
 * Debian's Chromium (/usr/bin/chromium, or CHROMIUM_PATH) through chrome-launcher: no browser download.
 * The scores go to bench/results/lighthouse.json (--out) and, rendered from that file, into the table
 * of docs/calendar-page.md (--report), as the bench writes its results. Never part of `npm test`: scores
 * depend on the machine's load.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  CATEGORIES,
  type Category,
  type LighthouseResults,
  type LighthouseRun,
  MARKERS,
  renderLighthouseReport,
  TARGET,
} from './lighthouse-report';
import { gitCommit } from './lib/git-commit';
import { withBlock } from './lib/report-block';

const USAGE =
  'Usage: npm run lighthouse -- [--url http://localhost:3000] [--out bench/results/lighthouse.json] ' +
  '[--report docs/calendar-page.md] [--save dir] | --from results.json [--report file.md]';

let parsed;
try {
  parsed = parseArgs({
    options: {
      url: { type: 'string' },
      out: { type: 'string', default: 'bench/results/lighthouse.json' },
      report: { type: 'string', default: 'docs/calendar-page.md' },
      from: { type: 'string' },
      save: { type: 'string' },
    },
  });
} catch (e) {
  console.error(`${(e as Error).message}\n${USAGE}`);
  process.exit(2);
}
const args = parsed.values;

function writeReport(results: LighthouseResults, source: string): void {
  const existing = existsSync(args.report) ? readFileSync(args.report, 'utf8') : undefined;
  writeFileSync(args.report, withBlock(existing, renderLighthouseReport(results, source), MARKERS));
  console.log(`Wrote the scores of ${source} into ${args.report}.`);
}

if (args.from) {
  if (!existsSync(args.from)) {
    console.error(`No results file ${args.from}: run npm run lighthouse first.\n${USAGE}`);
    process.exit(2);
  }
  writeReport(JSON.parse(readFileSync(args.from, 'utf8')) as LighthouseResults, args.from);
  process.exit(0);
}

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) {
  console.error(
    `No Chromium at ${CHROMIUM}: install Debian's package (apt-get install chromium) or set CHROMIUM_PATH.`,
  );
  process.exit(2);
}
let given: URL | undefined;
if (args.url) {
  try {
    given = new URL(args.url);
  } catch {
    console.error(`--url ${args.url} is not a URL (e.g. http://localhost:3000).\n${USAGE}`);
    process.exit(2);
  }
}

// The stack this run starts is configured before anything reading shared/config is imported.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
if (!given)
  Object.assign(process.env, {
    AWS_REGION: 'local',
    TABLE_NAME: `lighthouse-${Date.now()}`,
    AUTH_LOCAL_SECRET: randomBytes(32).toString('hex'),
    // A loaded machine (Chromium beside the stack) must not time a seeding write out.
    CAL_LOCAL_FUNCTION_TIMEOUT_MS: '60000',
  });

const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

let stack: { stop: () => Promise<void> } | undefined;
let chrome: { kill: () => void } | undefined;
async function stopAll(): Promise<void> {
  chrome?.kill();
  chrome = undefined;
  const s = stack;
  stack = undefined;
  await s?.stop();
}
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    console.error(`\n${signal}: stopping`);
    void stopAll().finally(() => process.exit(130));
  });

/** A stack of this run's own: DynamoDB Local in memory, a fresh table, the gateway, the page built. */
async function startStack(): Promise<string> {
  const { freePort, requireJava } = await import('../local/dynamo');
  requireJava();
  const web = await freePort();
  // The pages' canonical links and the API's urls name the origin measured.
  process.env.SITE_URL = `http://127.0.0.1:${web}`;
  console.log('Starting a stack of its own (DynamoDB Local in memory) and building the page…');
  const { startLocalStack } = await import('../local/stack');
  stack = await startLocalStack({
    table: { name: process.env.TABLE_NAME! },
    gateway: { port: web },
    web: 'required',
  });
  return process.env.SITE_URL!;
}

/** An upcoming event to measure the event page on: the stack's own, or a few seeded when it has none. */
async function eventPath(origin: string): Promise<string> {
  const api = `${origin}/cal/events/v1`;
  const first = async () => {
    const res = await fetch(`${api}/events?per_page=10`);
    if (res.status !== 200)
      throw new Error(`GET ${api}/events answered HTTP ${res.status}: is it the stack?`);
    const events = ((await res.json()) as { events: Array<{ url: string; venue: unknown }> }).events;
    // One with a venue shows the most (address, map link, JSON-LD Place).
    return (events.find((e) => e.venue && !Array.isArray(e.venue)) ?? events[0])?.url;
  };
  let url = await first();
  if (!url) {
    console.log('The stack has no upcoming event: seeding a few records…');
    await seedFew(api).catch((e: Error) => {
      throw new Error(
        `Could not seed ${api} (${e.message}): run npm run seed against it, or measure the run's own stack (no --url).`,
      );
    });
    url = await first();
  }
  if (!url) throw new Error(`${api} lists no upcoming event even after seeding.`);
  return new URL(url).pathname;
}

/** A venue, an organizer, a category and three upcoming events: what the two pages show. */
async function seedFew(api: string): Promise<void> {
  const { adminToken } = await import('../local/token');
  const { apiClient } = await import('../import-export/src');
  // The run's own stack's secret, or the one `npm start` keeps under .data/.
  const token = await (given ? adminToken() : adminToken(process.env.AUTH_LOCAL_SECRET!));
  const cal = apiClient(api, token);
  const venue = await cal.createVenue({
    body: {
      venue: 'Harbour Hall',
      address: '1 Quay Street',
      city: 'Bristol',
      zip: 'BS1 4DJ',
      country: 'United Kingdom',
      geo_lat: 51.452,
      geo_lng: -2.597,
    },
  });
  const organizer = await cal.createOrganizer({ body: { organizer: 'Night Owls Collective' } });
  const category = await cal.createCategory({ body: { name: 'Music' } });
  const day = (n: number) => new Date(Date.now() + n * 86400_000).toISOString().slice(0, 10);
  for (const [n, title] of [
    [3, 'Jazz at the Harbour'],
    [5, 'Folk Evening'],
    [9, 'Late Piano Sets'],
  ] as const)
    await cal.createEvent({
      body: {
        title,
        status: 'publish',
        start_date: `${day(n)} 19:30:00`,
        end_date: `${day(n)} 22:00:00`,
        timezone: 'Europe/London',
        description: `<p>${title}: an evening of live music by the water, with a bar and seats for everyone.</p>`,
        cost: '12',
        venue: [venue.data.id],
        organizer: [organizer.data.id],
        categories: [category.data.id],
      },
    });
}

async function main(): Promise<void> {
  // Before this run's own stack adds to it: what else the machine was doing.
  const startLoad = loadavg()[0]!;
  const origin = given ? given.origin : await startStack();
  const path = await eventPath(origin);
  const [{ default: lighthouse }, chromeLauncher, { default: desktopConfig }] = await Promise.all([
    import('lighthouse'),
    import('chrome-launcher'),
    import('lighthouse/core/config/desktop-config.js'),
  ]);
  const launched = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
  chrome = launched;
  const pages = [
    { page: 'calendar', path: '/' },
    { page: 'event page', path },
  ];
  const runs: LighthouseRun[] = [];
  let version = '';
  let browser = '';
  const total = pages.length * 2;
  for (const preset of ['mobile', 'desktop'] as const)
    for (const p of pages) {
      process.stdout.write(`[${runs.length + 1}/${total}] ${p.page} (${p.path}), ${preset}… `);
      const result = await lighthouse(
        `${origin}${p.path}`,
        { port: launched.port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] },
        preset === 'desktop' ? desktopConfig : undefined,
      );
      if (!result) throw new Error(`Lighthouse returned nothing for ${origin}${p.path}`);
      const { lhr } = result;
      if (lhr.runtimeError) throw new Error(`Lighthouse on ${p.path}: ${lhr.runtimeError.message}`);
      // The whole report, for what the scores do not say (long tasks, the LCP element, the trace's totals).
      if (args.save) {
        mkdirSync(args.save, { recursive: true });
        const file = join(args.save, `${p.page.replace(/\W+/g, '-')}-${preset}.json`);
        writeFileSync(file, JSON.stringify(lhr));
      }
      version = lhr.lighthouseVersion;
      browser = lhr.environment.hostUserAgent.match(/(?:Headless)?Chrome\/[\d.]+/)?.[0] ?? 'Chromium';
      const scores = Object.fromEntries(
        CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]),
      ) as Record<Category, number>;
      const losses = new Map<string, LighthouseRun['losses'][number]>();
      for (const c of CATEGORIES)
        for (const ref of lhr.categories[c]?.auditRefs ?? []) {
          const audit = lhr.audits[ref.id];
          if (!audit || ref.weight === 0 || audit.score === null || audit.score >= 1) continue;
          const seen = losses.get(ref.id);
          if (seen) seen.categories.push(c);
          else losses.set(ref.id, { id: ref.id, title: audit.title, score: audit.score, categories: [c] });
        }
      const value = (id: string) => lhr.audits[id]?.numericValue ?? 0;
      runs.push({
        ...p,
        preset,
        scores,
        losses: [...losses.values()].sort((a, b) => a.score - b.score),
        metrics: {
          fcp: value('first-contentful-paint'),
          lcp: value('largest-contentful-paint'),
          tbt: value('total-blocking-time'),
          cls: value('cumulative-layout-shift'),
        },
        benchmarkIndex: lhr.environment.benchmarkIndex,
      });
      console.log(CATEGORIES.map((c) => `${c} ${scores[c]}`).join(', '));
    }
  await stopAll();

  console.log(
    `\n${'page'.padEnd(30)} ${'preset'.padEnd(8)} ${CATEGORIES.map((c) => c.padStart(14)).join(' ')}`,
  );
  for (const r of runs)
    console.log(
      `${`${r.page} ${r.path}`.slice(0, 30).padEnd(30)} ${r.preset.padEnd(8)} ${CATEGORIES.map((c) =>
        `${r.scores[c]}${r.scores[c] < TARGET ? ' !' : ''}`.padStart(14),
      ).join(' ')}`,
    );
  for (const r of runs.filter((x) => x.losses.length))
    console.log(
      `\n${r.page}, ${r.preset}, cost points: ${r.losses.map((l) => `${l.id} (${Math.round(l.score * 100)})`).join(', ')}`,
    );

  const results: LighthouseResults = {
    runs,
    run: {
      commit: gitCommit(),
      date: new Date().toISOString().slice(0, 10),
      node: process.versions.node,
      lighthouse: version,
      chromium: browser,
      url: given ? origin : 'its own local stack',
      load: startLoad,
    },
  };
  writeFileSync(args.out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nWrote ${args.out}.`);
  writeReport(results, args.out);
}

try {
  await main();
} catch (e) {
  console.error(`\nnpm run lighthouse failed: ${(e as Error).message}`);
  process.exitCode = 1;
} finally {
  await stopAll();
}
