/**
 * `npm run bench -- --series`: what recurring events cost (issue 27, "Cost"), on the bench's stack.
 *
 * (a) Lists stay flat: at each size a calendar where 30% of the events are occurrences of weekly
 *     series (made through the API, up to 104 occurrences each, starting in the past year) and the
 *     rest single events (the bulk path), and list cases measured over HTTP as the main bench's are.
 * (b) Creating a weekly two-year series (`COUNT=104`, from tomorrow), (c) a `scope=all` title change
 *     on it: each request sent alone, its time, DynamoDB calls, round trips and write units; a request
 *     writes its journal for about 3 s and answers (docs/recurrence.md), so what it left, and what
 *     finishing that cost (as the extend job or a repeat would), are counted beside it.
 * (d) A daily extend run over N open weekly series (default 1,000), each made a fortnight before the
 *     horizon, so that the run, a day on, adds the occurrences that cross the new horizon.
 */
import { pool } from '../import-export/src';
import { type EventBody, planEvents, type SeedRefs } from '../scripts/seed';
import { getSeries } from '../shared/repositories/series';
import { finishJournal } from '../shared/services/series';
import { extendAllSeries, type ExtendProgress } from '../shared/services/series';
import { caseTable, json, table, type Figures } from './report';
import type { SeriesResults, SeriesWrite } from './report-markdown';
import { startRunInfo } from './run-info';
import { roundTrips, settled, startTrip, unsized, usage } from './usage';

/** Share of each calendar's events that are occurrences of weekly series. */
export const SERIES_SHARE = 0.3;
/** Occurrences of a weekly two-year series. */
const TWO_YEARS = 104;

export interface SeriesBenchOptions {
  base: string;
  token: string;
  sizes: number[];
  refs: SeedRefs;
  /** Requests of each measured create and title change (each sent alone). */
  creates: number;
  /** Open series of the extend run. */
  extendSeries: number;
  /** Series creates in flight while seeding. */
  concurrency: number;
  commit: string;
  requests: number;
  warmup: number;
  /** The main bench's read measurement (its requests, concurrency and figures). */
  measureRead: (path: string) => Promise<Figures>;
  /** Single events added through the bulk path, with progress. */
  bulk: (bodies: EventBody[], label: string) => Promise<void>;
  log: (line: string) => void;
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
let shown = 0;
/** A progress line on stderr, about once a second (`force`: now, as a phase's last). */
const progress = (line: string, force = false) => {
  if (!force && performance.now() - shown < 1000) return;
  shown = performance.now();
  process.stderr.write(`\r  ${line}`.padEnd(90));
};

/** A body moved to `date` (19:00-21:00 in its own zone, not all-day) as a weekly series. */
function weekly(body: EventBody, date: string, rule: string): EventBody {
  return {
    ...body,
    start_date: `${date} 19:00:00`,
    end_date: `${date} 21:00:00`,
    all_day: false,
    recurrence: [rule],
  } as EventBody;
}

export async function runSeriesBench(o: SeriesBenchOptions): Promise<SeriesResults> {
  const finished = startRunInfo(o.commit);
  const t0 = performance.now();
  const auth = { authorization: `Bearer ${o.token}`, 'content-type': 'application/json' };
  const setup: string[] = [];
  const note = (line: string) => {
    o.log(line);
    setup.push(line);
  };

  /** A POST or PATCH through HTTP; the answer's JSON, or a thrown line naming the status. */
  const send = async (method: string, path: string, body: unknown) => {
    const res = await fetch(`${o.base}${path}`, { method, headers: auth, body: JSON.stringify(body) });
    const json = (await res.json().catch(() => undefined)) as { id?: number } | undefined;
    if (res.status !== 200 && res.status !== 201)
      throw new Error(`${method} ${path}: HTTP ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
    return json!;
  };

  /** Makes series from `bodies` (pool of o.concurrency), then finishes every journal they left. */
  const makeSeries = async (bodies: EventBody[], label: string): Promise<number[]> => {
    const ids: number[] = [];
    let done = 0;
    await pool(bodies, o.concurrency, async (b) => {
      ids.push(Number((await send('POST', '/events', b)).id));
      progress(`${label}: ${++done}/${bodies.length} series created`, done === bodies.length);
    });
    process.stderr.write('\n');
    const finished = await extendAllSeries(new Date(), (p) =>
      progress(`${label}: journals finished over ${p.series} series: ${p.finished}`),
    );
    progress(`${label}: journals finished: ${finished.finished} over ${finished.series} series`, true);
    process.stderr.write('\n');
    if (finished.failed) throw new Error(`${finished.failed} series could not be extended`);
    return ids;
  };

  // (a) Lists on calendars with 30% of their events in weekly series.
  const bySize = new Map<number, Map<string, Figures>>();
  let singles = 0;
  let occurrences = 0;
  let seriesCount = 0;
  let oneSeries = 0;
  let oneOccurrence = 0;
  const venue = o.refs.venues[0]!.id;
  const cases: Array<{ name: string; kind: 'read'; note: string; path: string }> = [];
  for (const [round, size] of o.sizes.entries()) {
    const wantOccurrences = Math.round(size * SERIES_SHARE);
    const counts: number[] = [];
    for (let left = wantOccurrences - occurrences; left > 0; left -= TWO_YEARS)
      counts.push(Math.min(TWO_YEARS, left));
    // Starts in the past year: every occurrence of 104 weeks falls before the 24-month horizon.
    const bodies = planEvents(o.refs, { count: counts.length, seed: 3000 + round, pastShare: 1 }).map(
      (b, i) => weekly(b, String(b.start_date).slice(0, 10), `RRULE:FREQ=WEEKLY;COUNT=${counts[i]}`),
    );
    const made = await makeSeries(bodies, `series to ${size}`);
    for (const id of made) {
      const s = await getSeries(id);
      if (!s || s.journal) throw new Error(`series ${id} is not complete after its journal was finished`);
      occurrences += Object.keys(s.members).length;
    }
    seriesCount += made.length;
    if (!oneSeries) {
      oneSeries = made[0]!;
      oneOccurrence = Number(Object.keys((await getSeries(oneSeries))!.members).at(-1));
    }
    const addSingles = size - wantOccurrences - singles;
    if (addSingles > 0)
      await o.bulk(planEvents(o.refs, { count: addSingles, seed: 1000 + round }), `single events to ${size}`);
    singles += Math.max(0, addSingles);
    if (occurrences !== wantOccurrences)
      throw new Error(`${occurrences} occurrences written at ${size}, ${wantOccurrences} planned`);
    note(
      `${size} events: ${occurrences} occurrences of ${seriesCount} weekly series (${((occurrences / (occurrences + singles)) * 100).toFixed(0)}%) and ${singles} single events.`,
    );

    const pages = Number((await fetch(`${o.base}/events?per_page=10`)).headers.get('x-cal-totalpages'));
    const read = [
      { name: 'GET /events (default)', path: '/events', note: 'upcoming events, first page' },
      {
        name: 'GET /events?page=40',
        path: `/events?page=${Math.min(40, pages)}`,
        note: 'deep page of the default listing (the last one when there are fewer than 40)',
      },
      { name: 'GET /events?categories=jazz', path: '/events?categories=jazz', note: 'one leaf category' },
      { name: 'GET /events?venue=<id>', path: `/events?venue=${venue}`, note: 'one venue' },
      {
        name: 'GET /events (one-week window)',
        path: `/events?start_date=${day(14)}&end_date=${day(20)}%2023:59:59`,
        note: 'seven days, two weeks ahead',
      },
      {
        name: 'GET /events?series=<id>',
        path: `/events?series=${oneSeries}`,
        note: `one series' occurrences (series ${oneSeries}, made at the first size)`,
      },
      {
        name: 'GET /events/{id} (occurrence)',
        path: `/events/${oneOccurrence}`,
        note: `an occurrence by ID (${oneOccurrence}, the last of series ${oneSeries})`,
      },
    ];
    if (round === 0) cases.push(...read.map((c) => ({ ...c, kind: 'read' as const })));
    const results = new Map<string, Figures>();
    for (const [i, c] of read.entries()) {
      progress(`${size} events: case ${i + 1}/${read.length} ${c.name}`);
      await pool(Array.from({ length: o.warmup }), 4, () =>
        fetch(`${o.base}${c.path}`).then((r) => r.arrayBuffer()),
      );
      results.set(c.name, await o.measureRead(c.path));
    }
    process.stderr.write('\n');
    bySize.set(size, results);
  }
  o.log(
    `\nList cases, ${Math.round(SERIES_SHARE * 100)}% of the events in weekly series (per request: means; ✓ = calls and RCU within 1.5x):\n`,
  );
  o.log(caseTable(cases, o.sizes, bySize));

  // (b) and (c): a weekly two-year series created, then its title changed with scope=all.
  const writes: SeriesWrite[] = [];
  const measure = async (name: string, note: string, run: (i: number) => Promise<number>): Promise<void> => {
    const times: number[] = [];
    const sum = { calls: 0, trips: 0, wcu: 0, left: 0, finishCalls: 0, finishWcu: 0, finishMs: 0 };
    let occurrencesWritten = 0;
    for (let i = 0; i < o.creates; i++) {
      progress(`${name}: ${i + 1}/${o.creates}`);
      await settled();
      const before = { ...usage };
      startTrip();
      const start = performance.now();
      const id = await run(i);
      times.push(performance.now() - start);
      sum.trips += roundTrips();
      await settled();
      sum.calls += usage.calls - before.calls;
      sum.wcu += usage.wcu - before.wcu;
      const s = await getSeries(id);
      occurrencesWritten += Object.keys(s?.members ?? {}).length;
      if (s?.journal) {
        // What the request left: finished as its repeat or the extend job would.
        sum.left++;
        const b2 = { ...usage };
        const f0 = performance.now();
        await finishJournal(id, Number.POSITIVE_INFINITY);
        sum.finishMs += performance.now() - f0;
        await settled();
        sum.finishCalls += usage.calls - b2.calls;
        sum.finishWcu += usage.wcu - b2.wcu;
      }
    }
    process.stderr.write('\n');
    const sorted = [...times].sort((a, b) => a - b);
    const n = o.creates;
    const r1 = (x: number) => Math.round(x * 10) / 10;
    writes.push({
      name,
      note,
      requests: n,
      occurrences: Math.round(occurrencesWritten / n),
      p50_ms: r1(sorted[Math.ceil(n / 2) - 1]!),
      max_ms: r1(Math.max(...times)),
      calls: r1(sum.calls / n),
      round_trips: r1(sum.trips / n),
      wcu: r1(sum.wcu / n),
      left: sum.left,
      finish_ms: sum.left ? r1(sum.finishMs / sum.left) : 0,
      finish_calls: sum.left ? r1(sum.finishCalls / sum.left) : 0,
      finish_wcu: sum.left ? r1(sum.finishWcu / sum.left) : 0,
    });
  };
  const createBodies = planEvents(o.refs, { count: o.creates + 1, seed: 6000 }).map((b) =>
    weekly(b, day(1), `RRULE:FREQ=WEEKLY;COUNT=${TWO_YEARS}`),
  );
  // One create first, not measured: the first series write of the process loads the recurrence library.
  await makeSeries([createBodies[o.creates]!], 'warm-up series');
  const created: number[] = [];
  await measure(
    'POST /events (weekly series, 104 occurrences)',
    `RRULE:FREQ=WEEKLY;COUNT=${TWO_YEARS} from tomorrow, with the links of a seeded event`,
    async (i) => {
      created[i] = Number((await send('POST', '/events', createBodies[i])).id);
      return created[i]!;
    },
  );
  await measure(
    'PATCH /events/{id}?scope=all (title)',
    'a new title on every occurrence of one of those series',
    async (i) => {
      await send('PATCH', `/events/${created[i]}?scope=all`, { title: `Renamed series ${i + 1}` });
      return created[i]!;
    },
  );
  o.log('\nSeries writes (each request sent alone; per request: means, p50 and max of its time):\n');
  o.log(
    table(
      [
        'case',
        'occurrences',
        'p50 ms',
        'max ms',
        'calls',
        'trips',
        'WCU',
        'left',
        'finish ms',
        'calls',
        'WCU',
      ],
      writes.map((w) => [
        w.name,
        String(w.occurrences),
        w.p50_ms.toFixed(0),
        w.max_ms.toFixed(0),
        w.calls.toFixed(1),
        w.round_trips.toFixed(1),
        w.wcu.toFixed(0),
        `${w.left}/${w.requests}`,
        w.finish_ms.toFixed(0),
        w.finish_calls.toFixed(1),
        w.finish_wcu.toFixed(0),
      ]),
    ) +
      '\n(left: requests that answered with part of the series still in its journal; finish: what finishing it cost, per such request)',
  );

  // (d) A daily extend run over open weekly series, a day after they were made.
  const horizonDay = (() => {
    const d = new Date();
    d.setUTCMonth(d.getUTCMonth() + 24);
    return d;
  })();
  const nearHorizon = (i: number) =>
    new Date(horizonDay.getTime() - (14 - (i % 7)) * 86_400_000).toISOString().slice(0, 10);
  const openBodies = planEvents(o.refs, { count: o.extendSeries, seed: 7000 }).map((b, i) =>
    weekly(b, nearHorizon(i), 'RRULE:FREQ=WEEKLY'),
  );
  await makeSeries(openBodies, `${o.extendSeries} open series`);
  await settled();
  const before = { ...usage };
  const e0 = performance.now();
  const ran: ExtendProgress = await extendAllSeries(new Date(Date.now() + 86_400_000), (p) =>
    progress(`extend run, a day on: ${p.series} series read, ${p.added} occurrences added`),
  );
  const seconds = (performance.now() - e0) / 1000;
  progress(`extend run, a day on: ${ran.series} series read, ${ran.added} occurrences added`, true);
  await settled();
  process.stderr.write('\n');
  const extend = {
    series: ran.series,
    open: o.extendSeries,
    extended: ran.extended,
    added: ran.added,
    failed: ran.failed,
    seconds: Math.round(seconds * 10) / 10,
    calls: usage.calls - before.calls,
    rcu: Math.round((usage.rcu - before.rcu) * 10) / 10,
    wcu: Math.round(usage.wcu - before.wcu),
  };
  o.log(
    `\nDaily extend run, a day on, over ${extend.series} series (${extend.open} open weekly ones, made a fortnight before the horizon): ` +
      `${extend.seconds} s, ${extend.extended} series extended by ${extend.added} occurrences (${extend.failed} failed); ` +
      `${extend.calls} DynamoDB calls, ${extend.rcu} RCU, ${extend.wcu} WCU.`,
  );
  if (unsized.count) note(`${unsized.count} writes could not be sized: their write units are left out.`);

  const listed = json(o.sizes, cases, bySize, []);
  return {
    sizes: o.sizes,
    share: SERIES_SHARE,
    cases: listed.cases,
    writes,
    extend,
    run: {
      ...finished(),
      requests: o.requests,
      seconds: Math.round((performance.now() - t0) / 1000),
      setup,
    },
  };
}
