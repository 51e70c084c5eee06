/**
 * The bench's results as Markdown, for `npm run bench -- --report docs/benchmarks.md`.
 *
 * The report is rendered from the results JSON alone (what `--out` writes), so a saved run can be
 * rendered again (`--from bench/results/1000-50000.json`) and a test can check that the document's
 * tables are what its results file says: nobody pastes figures by hand. The generated part sits
 * between two markers; the hand-written text around it is kept.
 */
import { blockSource, type Markers, withBlock } from '../scripts/lib/report-block';
import {
  type BenchResults,
  f1,
  ratio,
  short,
  type SizeFigures,
  tripLimit,
  within,
  type Figures,
} from './report';
import type { RunInfo } from './run-info';

export type { BenchResults, SizeFigures } from './report';

export const BEGIN = '<!-- bench-report:begin';
export const END = '<!-- bench-report:end -->';

/** What `--cold-only` writes: the cold start alone, with the run it came from. */
export type ColdResults = Pick<BenchResults, 'coldStart' | 'coldBaseline'> & {
  run: { commit: string; date: string; node: string; cold_rounds: number };
};

/** The markers of a cold-only report's generated part (`npm run bench -- --cold-only --report`). */
export const COLD_MARKERS = { begin: '<!-- bench-cold-report:begin', end: '<!-- bench-cold-report:end -->' };

export const number = (n: number) => n.toLocaleString('en-US');
export const code = (s: string) => `\`${s.replace(/`/g, "'")}\``;
const cell = (s: string) => s.replace(/\|/g, '\\|');

/** A GitHub Markdown table; columns listed in `right` are right-aligned. */
export function mdTable(headers: string[], rows: string[][], right: number[] = []): string {
  const line = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;
  const rule = headers.map((_, i) => (right.includes(i) ? '---:' : '---'));
  return [line(headers), `|${rule.join('|')}|`, ...rows.map(line)].join('\n');
}

/** The report's own Figures from the JSON's, so the verdicts are the bench's own (`within`, `tripLimit`). */
const asFigures = (f: SizeFigures): Figures => ({
  p50: f.p50_ms,
  p95: f.p95_ms,
  calls: f.calls,
  items: f.items_read,
  rcu: f.rcu,
  wcu: f.wcu,
  errors: 0,
  total: '-',
  shown: f.shown,
  trips: f.round_trips,
});

function runLine(r: BenchResults, source: string): string {
  const sizes = r.sizes.map(number).join(' and ');
  if (!r.run)
    return `From ${code(source)}: ${sizes} events. This results file predates the run details (commit, requests per case); its commit history says which run it holds.`;
  const { run } = r;
  return (
    `From ${code(source)}: ${sizes} events; commit ${code(run.commit)}, ${run.date}, Node ${run.node}; ` +
    `${run.requests} requests per read case and ${run.write_requests} per write case, ${run.concurrency} at a time; ` +
    `${run.cold_rounds} cold-start rounds.`
  );
}

/** The cost table of list and write cases across sizes (the main report's; the series' and tickets' too). */
export function costTable(r: BenchResults): string {
  const across = (values: string[]) => values.join(' → ');
  const rows = r.cases.map((c) => {
    const f = r.sizes.map((s) => c.bySize[String(s)]!);
    const [a, b] = [asFigures(f[0]!), asFigures(f[f.length - 1]!)];
    const unitsX = c.kind === 'read' ? ratio(b.rcu, a.rcu) : ratio(b.wcu, a.wcu);
    return [
      code(c.name),
      across(f.map((x) => f1(x.shown))),
      across(f.map((x) => f1(x.calls))),
      across(f.map((x) => f1(x.round_trips))),
      across(f.map((x) => f1(x.items_read))),
      across(f.map((x) => f1(c.kind === 'read' ? x.rcu : x.wcu))),
      ratio(b.calls, a.calls).toFixed(2),
      unitsX.toFixed(2),
      r.sizes.length < 2 ? '-' : within(c.kind, a, b) ? '✓' : '✗',
      `${f.every((x) => x.round_trips <= tripLimit(c)) ? '✓' : '✗'} ≤${tripLimit(c)}`,
    ];
  });
  return mdTable(
    ['case', 'shown', 'calls', 'round trips', 'items read', 'units', 'calls ×', 'units ×', '≤1.5x', 'trips'],
    rows,
    [1, 2, 3, 4, 5, 6, 7],
  );
}

function latencyTable(r: BenchResults): string {
  const rows = r.cases.map((c) => {
    const f = r.sizes.map((s) => c.bySize[String(s)]!);
    return [code(c.name), ...f.map((x) => x.p50_ms.toFixed(1)), ...f.map((x) => x.p95_ms.toFixed(1))];
  });
  const per = (label: string) => r.sizes.map((s) => `${label} @${short(s)}`);
  return mdTable(
    ['case', ...per('p50 ms'), ...per('p95 ms')],
    rows,
    rows[0]?.map((_, i) => i).slice(1) ?? [],
  );
}

function coldTable(r: BenchResults): string {
  const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
  const timed = r.coldStart.some((f) => f.median_ms !== undefined);
  const rows = r.coldStart.map((f) => [
    f.function,
    kb(f.bytes),
    ...(timed ? [f.median_ms?.toFixed(1) ?? '-'] : []),
    f.ratio.toFixed(2),
    f.ratio <= 1.3 ? '✓' : '✗',
    ...(timed ? [f.extras ?? ''] : []),
  ]);
  if (r.coldBaseline && timed)
    rows.unshift([
      r.coldBaseline.function,
      kb(r.coldBaseline.bytes),
      r.coldBaseline.median_ms.toFixed(1),
      '1.00',
      '',
      '',
    ]);
  const headers = timed
    ? ['function', 'bundle', 'init ms (median)', '× bare client', '≤1.3x', 'largest parts beyond the AWS SDK']
    : ['function', 'bundle', '× bare client', '≤1.3x'];
  return mdTable(headers, rows, timed ? [1, 2, 3] : [1, 2]);
}

function handlerTable(h: NonNullable<BenchResults['handlerTime']>): string {
  return mdTable(
    ['stage', 'p50 ms', 'p95 ms', 'share'],
    h.stages.map((s) => [
      s.stage,
      s.p50_ms.toFixed(3),
      s.p95_ms.toFixed(3),
      `${(s.share * 100).toFixed(0)}%`,
    ]),
    [1, 2, 3],
  );
}

/** The generated part of the document: everything between (and including) the two markers. */
export function renderReport(r: BenchResults, source: string): string {
  const sizes = r.sizes.map(short).join(' → ');
  const out = [
    `${BEGIN} source=${source}: written by \`npm run bench -- --report\`; edits between these markers are overwritten -->`,
    '',
    '## Results',
    '',
    runLine(r, source),
    '',
    ...(r.run?.setup.length ? [...r.run.setup.map((s) => `- ${s}`), ''] : []),
    `### Cost per request (${sizes} events)`,
    '',
    `Per request, means: records in the answer (\`shown\`), DynamoDB calls, round trips of a request sent alone, items read, and units (RCU for reads, WCU for writes). \`×\`: largest size over smallest; ✓ when calls and units stay within 1.5x, and when round trips stay within the case's limit.`,
    '',
    costTable(r),
    '',
    '### Latency',
    '',
    'Latencies swing with the machine\u2019s load: compare them within one run only.',
    '',
    latencyTable(r),
    '',
  ];
  const notes = r.cases.filter((c) => c.note);
  if (notes.length) out.push('### The cases', '', ...notes.map((c) => `- ${code(c.name)}: ${c.note}`), '');
  if (r.handlerTime) {
    const h = r.handlerTime;
    out.push(
      `### Handler time of \`GET /events?${h.query}\` at ${number(h.size)} events`,
      '',
      `${h.items} events on the page, in process, DynamoDB time taken out (its median: ${h.db_ms.toFixed(1)} ms).`,
      '',
      handlerTable(h),
      '',
    );
  }
  if (r.coldStart.length)
    out.push(
      '### Cold start',
      '',
      'Median module init of a fresh `node` importing the bundle (and any chunk every request of the function loads), over the same for a bundle that only creates a DynamoDB client.',
      '',
      coldTable(r),
      '',
    );
  out.push(END);
  return out.join('\n');
}

/** One series write case of `--series`: per request, means (sent alone). */
export interface SeriesWrite {
  name: string;
  note: string;
  requests: number;
  /** Occurrences of the series written. */
  occurrences: number;
  p50_ms: number;
  max_ms: number;
  calls: number;
  round_trips: number;
  wcu: number;
  /** Requests that answered with part of the series still in its journal, and finishing it, per such request. */
  left: number;
  finish_ms: number;
  finish_calls: number;
  finish_wcu: number;
}

/** What `--series` writes (bench/series.ts). */
export interface SeriesResults {
  sizes: number[];
  /** Share of each calendar's events that are occurrences of weekly series. */
  share: number;
  cases: BenchResults['cases'];
  writes: SeriesWrite[];
  extend: {
    series: number;
    open: number;
    extended: number;
    added: number;
    failed: number;
    seconds: number;
    calls: number;
    rcu: number;
    wcu: number;
  };
  run: RunInfo & { requests: number; seconds: number; setup: string[] };
}

/** The markers of a series report's generated part (`npm run bench -- --series --report`). */
export const SERIES_MARKERS = {
  begin: '<!-- bench-series-report:begin',
  end: '<!-- bench-series-report:end -->',
};

/** The Markdown of a `--series` run, between SERIES_MARKERS: its list cases as the main report's. */
export function renderSeriesReport(r: SeriesResults, source: string): string {
  const { run, extend: x } = r;
  const share = `${Math.round(r.share * 100)}%`;
  const lists: BenchResults = { sizes: r.sizes, cases: r.cases, coldStart: [] };
  const writes = mdTable(
    [
      'case',
      'occurrences',
      'p50 ms',
      'max ms',
      'calls',
      'round trips',
      'WCU',
      'left',
      'finish ms',
      'finish calls',
      'finish WCU',
    ],
    r.writes.map((w) => [
      code(w.name),
      String(w.occurrences),
      w.p50_ms.toFixed(0),
      w.max_ms.toFixed(0),
      f1(w.calls),
      f1(w.round_trips),
      f1(w.wcu),
      `${w.left} of ${w.requests}`,
      w.finish_ms.toFixed(0),
      f1(w.finish_calls),
      f1(w.finish_wcu),
    ]),
    [1, 2, 3, 4, 5, 6, 8, 9, 10],
  );
  return [
    `${SERIES_MARKERS.begin} source=${source}: written by \`npm run bench -- --series --report\`; edits between these markers are overwritten -->`,
    `### Recurring events (${r.sizes.map(short).join(' → ')} events, ${share} in weekly series)`,
    '',
    `From ${code(source)}: commit ${code(run.commit)}, ${run.date}, Node ${run.node}, ${run.cpus} CPUs; load average (1, 5, 15 min) ` +
      `${run.loadavg_before.join(', ')} before and ${run.loadavg_after.join(', ')} after; ${run.requests} requests per list case; ${run.seconds} s in all.`,
    '',
    ...run.setup.map((s) => `- ${s}`),
    '',
    `Lists, on calendars where ${share} of the events are occurrences of weekly series, as the cost table above:`,
    '',
    costTable(lists),
    '',
    'Series writes, each request sent alone. A request writes its journal for about 3 s and answers; `left`: requests that answered with part of the series still in its journal, and `finish`: what finishing it cost per such request (as the finisher, a repeat or the extend job does; docs/recurrence.md).',
    '',
    writes,
    '',
    ...r.writes.map((w) => `- ${code(w.name)}: ${w.note}`),
    '',
    `Daily extend run, a day on, over ${number(x.series)} series (${number(x.open)} open weekly ones made a fortnight before the horizon): ` +
      `${x.seconds} s; ${x.extended} series extended by ${x.added} occurrences (${x.failed} failed); ${number(x.calls)} DynamoDB calls, ${f1(x.rcu)} RCU, ${f1(x.wcu)} WCU.`,
    SERIES_MARKERS.end,
  ].join('\n');
}

/** The cold start of a `--cold-only` run, between the markers of COLD_MARKERS. */
export function renderColdReport(r: ColdResults, source: string): string {
  const { run } = r;
  return [
    `${COLD_MARKERS.begin} source=${source}: written by \`npm run bench -- --cold-only --report\`; edits between these markers are overwritten -->`,
    '',
    `From ${code(source)}: commit ${code(run.commit)}, ${run.date}, Node ${run.node}; ${run.cold_rounds} cold-start rounds. ` +
      'Median module init of a fresh `node` importing the bundle (and any chunk every request of the function loads), over the same for a bundle that only creates a DynamoDB client.',
    '',
    coldTable({ sizes: [], cases: [], coldStart: r.coldStart, coldBaseline: r.coldBaseline }),
    COLD_MARKERS.end,
  ].join('\n');
}

/** `existing` with its bench report (between `markers`, the main report's by default) replaced by `block`. */
export const withReport = (
  existing: string | undefined,
  block: string,
  markers: Markers = { begin: BEGIN, end: END },
) => withBlock(existing, block, markers);

/** The results file a document's report (from `begin`) was rendered from, if it has one. */
export const reportSource = (document: string, begin = BEGIN): string | undefined =>
  blockSource(document, begin);
