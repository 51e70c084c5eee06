/**
 * `npm run bench -- --pages`: the time to answer the public pages (issue 29; target: an event page's
 * p50 under 50 ms) on the bench's own local stack, through the gateway as a browser or a crawler asks:
 * an event with a venue, an organizer, a category under a parent and a tag (the page reads each), an
 * occurrence of a weekly series (which also lists the series' next dates), and the venue's and the
 * organizer's pages (each with its upcoming events). Requests go one at a time, after a warm-up, so
 * p50 / p99 are one request's time. Results go to bench/results/pages.json and, with --report, rendered
 * from that file into docs/benchmarks.md (between PAGES_MARKERS).
 */
import type { ApiClient } from '../import-export/src';
import type { EventBody } from '../scripts/seed';

export interface PageCase {
  name: string;
  path: string;
  requests: number;
  p50_ms: number;
  p99_ms: number;
  /** The page's size in bytes. */
  bytes: number;
  errors: number;
}

export interface PagesResults {
  pages: PageCase[];
  run: {
    commit: string;
    date: string;
    node: string;
    warmup: number;
    /** os.loadavg() and the cores when the run started: the figures depend on the machine's load. */
    load_average: number[];
    cores: number;
  };
}

export const PAGES_MARKERS = {
  begin: '<!-- bench-pages-report:begin',
  end: '<!-- bench-pages-report:end -->',
};

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;

/** The records the pages show, through the API; the pages to measure. */
export async function seedPages(api: ApiClient): Promise<Array<{ name: string; path: string }>> {
  const venue = await api.createVenue({
    body: { venue: 'Harbour Hall', address: '1 Quay Street', city: 'Bristol', country: 'United Kingdom' },
  });
  const organizer = await api.createOrganizer({ body: { organizer: 'Night Owls Collective' } });
  const music = await api.createCategory({ body: { name: 'Music' } });
  const jazz = await api.createCategory({ body: { name: 'Jazz', parent: music.data.id } });
  const tag = await api.createTag({ body: { name: 'Accessible' } });
  const day = (n: number) => new Date(Date.now() + n * 86400_000).toISOString().slice(0, 10);
  const body: Omit<EventBody, 'title' | 'start_date' | 'end_date'> = {
    status: 'publish',
    timezone: 'Europe/London',
    description: '<p>Standards and <strong>late sets</strong> by the water.</p>',
    cost: '12',
    venue: [venue.data.id],
    organizer: [organizer.data.id],
    categories: [jazz.data.id],
    tags: [tag.data.id],
  };
  const single = await api.createEvent({
    body: { ...body, title: 'Jazz Night', start_date: `${day(7)} 20:00:00`, end_date: `${day(7)} 23:00:00` },
  });
  const series = await api.createEvent({
    body: {
      ...body,
      title: 'Weekly Jam',
      start_date: `${day(2)} 19:00:00`,
      end_date: `${day(2)} 21:00:00`,
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=12'],
    },
  });
  const path = (url: string) => new URL(url).pathname;
  // The venue's and the organizer's pages list their upcoming events: the single one and the series' 12.
  return [
    { name: 'GET /event/<slug>/', path: path(single.data.url) },
    { name: 'GET /event/<slug>/ (occurrence of a series)', path: path(series.data.url) },
    { name: 'GET /venue/<slug>/ (13 upcoming events)', path: path(venue.data.url) },
    { name: 'GET /organizer/<slug>/ (13 upcoming events)', path: path(organizer.data.url) },
    // The API's own read of the event, for comparison: what the page adds to it is the rest.
    {
      name: 'GET /cal/events/v1/events/by-slug/<slug> (JSON, for comparison)',
      path: `${new URL(api.base).pathname}/events/by-slug/${single.data.slug}`,
    },
  ];
}

/** `requests` GETs of the page one at a time, after `warmup` unmeasured ones. */
export async function measurePage(
  origin: string,
  c: { name: string; path: string },
  requests: number,
  warmup: number,
): Promise<PageCase> {
  let bytes = 0;
  let errors = 0;
  const get = async () => {
    const res = await fetch(`${origin}${c.path}`);
    bytes = (await res.arrayBuffer()).byteLength;
    const type = c.path.startsWith('/cal/') ? 'application/json' : 'text/html';
    if (res.status !== 200 || !res.headers.get('content-type')?.startsWith(type)) errors++;
  };
  for (let i = 0; i < warmup; i++) await get();
  const times: number[] = [];
  for (let i = 0; i < requests; i++) {
    const t0 = performance.now();
    await get();
    times.push(performance.now() - t0);
    if (i % 20 === 19) process.stderr.write(`\r  ${c.name}: ${i + 1}/${requests}   `);
  }
  process.stderr.write('\n');
  times.sort((a, b) => a - b);
  const r1 = (n: number) => Math.round(n * 10) / 10;
  return {
    ...c,
    requests,
    p50_ms: r1(quantile(times, 0.5)),
    p99_ms: r1(quantile(times, 0.99)),
    bytes,
    errors,
  };
}

/** The table of a run, for the console and the report. */
export function pagesTable(r: PagesResults): string {
  return [
    '| page | requests | p50 ms | p99 ms | bytes | errors |',
    '|---|---:|---:|---:|---:|---:|',
    ...r.pages.map(
      (c) =>
        `| ${c.name} | ${c.requests} | ${c.p50_ms} | ${c.p99_ms} | ${c.bytes.toLocaleString('en-US')} | ${c.errors} |`,
    ),
  ].join('\n');
}

/** The cases as Markdown, between the markers (rendered from the results file alone). */
export function renderPagesReport(r: PagesResults, source: string): string {
  return [
    `${PAGES_MARKERS.begin} source=${source}: written by \`npm run bench -- --pages --report\`; edits between these markers are overwritten -->`,
    '',
    `From \`${source}\`: commit \`${r.run.commit}\`, ${r.run.date}, Node ${r.run.node}; one request at a time after ${r.run.warmup} unmeasured ones, client and stack in one process; load average ${r.run.load_average.join(', ')} (1, 5, 15 min) on ${r.run.cores} cores when it started.`,
    '',
    pagesTable(r),
    '',
    PAGES_MARKERS.end,
  ].join('\n');
}
