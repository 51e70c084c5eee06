/** The bench's figures, tables and JSON. */
import type { ColdStart } from './cold-start';
import type { Usage } from './usage';

/** One case's figures at one size, as the results JSON holds them. */
export interface SizeFigures {
  shown: number;
  p50_ms: number;
  p95_ms: number;
  calls: number;
  round_trips: number;
  items_read: number;
  rcu: number;
  wcu: number;
}

/** What `--out` writes. Fields after `coldStart` are absent from results saved before they were kept. */
export interface BenchResults {
  sizes: number[];
  cases: Array<{
    name: string;
    kind: 'read' | 'write';
    /** What the request is, with the run's choices (page number, venue). */
    note?: string;
    bySize: Record<string, SizeFigures>;
  }>;
  coldStart: Array<{ function: string; bytes: number; ratio: number; median_ms?: number; extras?: string }>;
  coldBaseline?: { function: string; bytes: number; median_ms: number };
  handlerTime?: {
    query: string;
    size: number;
    items: number;
    db_ms: number;
    stages: Array<{ stage: string; p50_ms: number; p95_ms: number; share: number }>;
  };
  run?: {
    commit: string;
    date: string;
    node: string;
    requests: number;
    write_requests: number;
    concurrency: number;
    cold_rounds: number;
    /** What the run chose and checked while setting up (bulk path check, drafted events, the venue). */
    setup: string[];
  };
}

export interface Figures {
  p50: number;
  p95: number;
  calls: number;
  items: number;
  rcu: number;
  wcu: number;
  errors: number;
  total: string;
  /** Records in the answer (the list's page, or 1): what a request's cost should follow. */
  shown: number;
  /** Round trips to DynamoDB of a request sent alone (mean of the case's first few requests). */
  trips: number;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;

/** Per-request figures of a loop: latency quantiles and the means of what DynamoDB did. */
export function figures(
  times: number[],
  now: Usage,
  before: Usage,
  n: number,
  extra: { errors: number; total: string; shown: number; trips: number },
): Figures {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    p50: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    calls: (now.calls - before.calls) / n,
    items: (now.items - before.items) / n,
    rcu: (now.rcu - before.rcu) / n,
    wcu: (now.wcu - before.wcu) / n,
    ...extra,
  };
}

export function table(headers: string[], rows: string[][], left: number[] = [0]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (left.includes(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export const short = (n: number) =>
  n >= 1000 ? `${n % 1000 === 0 ? n / 1000 : (n / 1000).toFixed(1)}k` : String(n);
export const f1 = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
export const ratio = (a: number, b: number) => (b > 0 ? a / b : a > 0 ? Infinity : 1);

interface CaseLike {
  name: string;
  kind: 'read' | 'write';
  note?: string;
}

/** Whether calls and the units of the case's kind stay within `limit` from the smallest size to the largest. */
export function within(kind: 'read' | 'write', a: Figures, b: Figures, limit = 1.5): boolean {
  const units = kind === 'read' ? ratio(b.rcu, a.rcu) : ratio(b.wcu, a.wcu);
  return ratio(b.calls, a.calls) <= limit && units <= limit;
}

/**
 * Issue 9's round-trip target: at most 3 per listing (the records its page embeds included), 2 per
 * single read, and for a create or update one transaction and at most three reads.
 */
export function tripLimit(c: CaseLike): number {
  if (c.kind === 'write') return 4;
  return /\{id\}|\{slug\}/.test(c.name) ? 2 : 3;
}

/** One table: every case, its figures at each size, the largest / smallest ratios and the marker. */
export function caseTable(
  cases: CaseLike[],
  sizes: number[],
  bySize: Map<number, Map<string, Figures>>,
): string {
  const small = sizes[0]!;
  const large = sizes[sizes.length - 1]!;
  const per = (label: string) => sizes.map((s) => `${label}@${short(s)}`);
  const headers = [
    'case',
    ...per('shown'),
    ...per('p50'),
    ...per('p95'),
    ...per('calls'),
    ...per('trips'),
    ...per('items'),
    ...per('RCU'),
    ...per('WCU'),
    'calls x',
    'units x',
    '≤1.5x',
    'trips ok',
  ];
  const rows = cases.map((c) => {
    const f = sizes.map((s) => bySize.get(s)!.get(c.name)!);
    const a = f[0]!;
    const b = f[f.length - 1]!;
    const unitsX = c.kind === 'read' ? ratio(b.rcu, a.rcu) : ratio(b.wcu, a.wcu);
    return [
      c.name,
      ...f.map((x) => f1(x.shown)),
      ...f.map((x) => x.p50.toFixed(1)),
      ...f.map((x) => x.p95.toFixed(1)),
      ...f.map((x) => x.calls.toFixed(1)),
      ...f.map((x) => x.trips.toFixed(1)),
      ...f.map((x) => f1(x.items)),
      ...f.map((x) => f1(x.rcu)),
      ...f.map((x) => f1(x.wcu)),
      ratio(b.calls, a.calls).toFixed(2),
      unitsX.toFixed(2),
      sizes.length < 2 ? '-' : within(c.kind, a, b) ? '✓' : '✗',
      f.every((x) => x.trips <= tripLimit(c)) ? `✓ ≤${tripLimit(c)}` : `✗ ≤${tripLimit(c)}`,
    ];
  });
  return `${table(headers, rows)}\n(ratios: ${short(large)} / ${short(small)} events; units are RCU for reads, WCU for writes; trips: round trips of a request sent alone, against the issue's limit)`;
}

/** The results file (`--out`); bench/report-markdown.ts renders it, `BenchResults` above is its type. */
export function json(
  sizes: number[],
  cases: CaseLike[],
  bySize: Map<number, Map<string, Figures>>,
  coldStart: ColdStart[],
  more: {
    coldBaseline?: { function: string; bytes: number; median_ms: number };
    handlerTime?: {
      query: string;
      size: number;
      items: number;
      dbMs: number;
      stages: Array<{ stage: string; p50_ms: number; p95_ms: number; share: number }>;
    };
    run?: BenchResults['run'];
  } = {},
): BenchResults {
  const r3 = (n: number) => Number(n.toFixed(3));
  const h = more.handlerTime;
  return {
    sizes,
    cases: cases.map((c) => ({
      name: c.name,
      kind: c.kind,
      note: c.note,
      bySize: Object.fromEntries(
        sizes.map((s) => {
          const f = bySize.get(s)!.get(c.name)!;
          return [
            String(s),
            {
              shown: r3(f.shown),
              p50_ms: r3(f.p50),
              p95_ms: r3(f.p95),
              calls: r3(f.calls),
              round_trips: r3(f.trips),
              items_read: r3(f.items),
              rcu: r3(f.rcu),
              wcu: r3(f.wcu),
            },
          ];
        }),
      ),
    })),
    coldStart: coldStart.map((f) => ({
      function: f.function,
      bytes: f.bytes,
      ratio: r3(f.ratio),
      median_ms: r3(f.median_ms),
      extras: f.extras,
    })),
    coldBaseline: more.coldBaseline && { ...more.coldBaseline, median_ms: r3(more.coldBaseline.median_ms) },
    handlerTime: h && {
      query: h.query,
      size: h.size,
      items: h.items,
      db_ms: r3(h.dbMs),
      stages: h.stages.map((s) => ({ ...s, p50_ms: r3(s.p50_ms), p95_ms: r3(s.p95_ms), share: r3(s.share) })),
    },
    run: more.run,
  };
}

export function stageTable(
  stages: Array<{ stage: string; p50_ms: number; p95_ms: number; share: number }>,
): string {
  return table(
    ['stage', 'p50 ms', 'p95 ms', 'share'],
    stages.map((s) => [s.stage, s.p50_ms.toFixed(3), s.p95_ms.toFixed(3), `${(s.share * 100).toFixed(0)}%`]),
  );
}

export function coldTable(
  baseline: { function: string; bytes: number; median_ms: number },
  functions: Array<{ function: string; bytes: number; ratio: number; median_ms: number; extras: string }>,
): string {
  const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
  return table(
    ['function', 'bundle', 'init ms (median)', 'x bare', '≤1.3x', 'largest parts beyond the AWS SDK'],
    [
      [baseline.function, kb(baseline.bytes), baseline.median_ms.toFixed(1), '1.00', '', ''],
      ...functions.map((f) => [
        f.function,
        kb(f.bytes),
        f.median_ms.toFixed(1),
        f.ratio.toFixed(2),
        f.ratio <= 1.3 ? '✓' : '✗',
        f.extras,
      ]),
    ],
    [0, 5],
  );
}

export function loadTable(
  rows: Array<{
    name: string;
    requests: number;
    rps: number;
    p50_ms: number;
    p99_ms: number;
    non200: number;
  }>,
): string {
  return table(
    ['case', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'non-200'],
    rows.map((r) => [
      r.name,
      String(r.requests),
      r.rps.toFixed(0),
      r.p50_ms.toFixed(1),
      r.p99_ms.toFixed(1),
      String(r.non200),
    ]),
  );
}
