import { PAGES_MARKERS, renderPagesReport } from '../../bench/pages';
import { renderWebhooksReport, WEBHOOKS_MARKERS } from '../../bench/webhooks';
import { IMPORT_MARKERS, renderImportReport } from '../../bench/import';
import { IDLE_MARKERS, renderIdleReport } from '../../bench/idle';
import { renderTicketsReport, TICKETS_MARKERS, type TicketsResults } from '../../bench/tickets-report';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BEGIN,
  type BenchResults,
  COLD_MARKERS,
  type ColdResults,
  END,
  renderColdReport,
  renderReport,
  renderSeriesReport,
  reportSource,
  SERIES_MARKERS,
  type SeriesResults,
  withReport,
} from '../../bench/report-markdown';

/**
 * docs/benchmarks.md carries the bench's results as the bench wrote them (`npm run bench -- --report`),
 * never pasted by hand: its generated part must be what its results file renders.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

const figures = (calls: number, rcu: number) => ({
  shown: 10,
  p50_ms: 12.34,
  p95_ms: 20,
  calls,
  round_trips: 2,
  items_read: 40,
  rcu,
  wcu: 0,
});

const results: BenchResults = {
  sizes: [1000, 50000],
  cases: [
    {
      name: 'GET /events?page=<last>',
      kind: 'read',
      note: 'last page',
      bySize: { '1000': figures(4, 10), '50000': figures(4, 20) },
    },
  ],
  coldStart: [{ function: 'events/get-event', bytes: 2048, ratio: 1.1 }],
  run: {
    commit: 'abc1234',
    date: '2026-11-27',
    node: '22.1.0',
    requests: 100,
    write_requests: 40,
    concurrency: 4,
    cold_rounds: 31,
    setup: ['Category + venue: venue 7'],
  },
};

/** Each generated part of a document: its markers and how its results file renders. */
const PARTS: Array<
  [string, string, { begin: string; end: string } | undefined, (r: any, source: string) => string]
> = [
  ['docs/benchmarks.md', 'the list and write cases', undefined, renderReport],
  ['docs/cold-start.md', 'the cold start', COLD_MARKERS, renderColdReport],
  ['docs/benchmarks.md', 'the recurring events', SERIES_MARKERS, renderSeriesReport],
  ['docs/benchmarks.md', 'the imports', IMPORT_MARKERS, renderImportReport],
  ['docs/benchmarks.md', 'the webhooks', WEBHOOKS_MARKERS, renderWebhooksReport],
  ['docs/benchmarks.md', 'the public pages', PAGES_MARKERS, renderPagesReport],
  ['docs/benchmarks.md', 'the idle stack', IDLE_MARKERS, renderIdleReport],
  ['docs/benchmarks.md', 'the tickets', TICKETS_MARKERS, renderTicketsReport],
];

describe('the documents the bench writes', () => {
  it.each(PARTS)('%s holds exactly what its results file for %s renders', (file, what, markers, render) => {
    const doc = read(file);
    const source = reportSource(doc, markers?.begin);

    expect(source, `${file} has no part for ${what} naming its results file`).toBeDefined();
    const block = render(JSON.parse(read(source!)), source!);
    expect(
      withReport(doc, block, markers),
      `${file} differs from ${source}: run npm run bench -- --from ${source} --report ${file}`,
    ).toBe(doc);
  });
});

describe('the Markdown report', () => {
  it('renders the run, the figures with their verdicts, the cases and the cold start', () => {
    const block = renderReport(results, 'bench/results/x.json');

    expect(block.startsWith(`${BEGIN} source=bench/results/x.json:`)).toBe(true);
    expect(block.endsWith(END)).toBe(true);
    expect(block).toContain('commit `abc1234`, 2026-11-27');
    expect(block).toContain('- Category + venue: venue 7');
    // Case names are code, so `<last>` is not taken for an HTML tag; the RCU doubled: not flat.
    expect(block).toContain(
      '| `GET /events?page=<last>` | 10.0 → 10.0 | 4.0 → 4.0 | 2.0 → 2.0 | 40.0 → 40.0 | 10.0 → 20.0 | 1.00 | 2.00 | ✗ | ✓ ≤3 |',
    );
    expect(block).toContain('- `GET /events?page=<last>`: last page');
    expect(block).toContain('| events/get-event | 2 KB | 1.10 | ✓ |');
  });

  it('says when a results file predates the run details', () => {
    const { run: _omitted, ...older } = results;

    expect(renderReport(older, 'old.json')).toContain('This results file predates the run details');
  });

  it('replaces only the generated part of a document and keeps the text around it', () => {
    const doc = `# Benchmarks\n\nBefore.\n\n${renderReport(results, 'a.json')}\n\nAfter.\n`;
    const next = renderReport({ ...results, sizes: [1000] }, 'b.json');

    const out = withReport(doc, next);

    expect(out).toBe(`# Benchmarks\n\nBefore.\n\n${next}\n\nAfter.\n`);
    expect(reportSource(out)).toBe('b.json');
  });

  it('renders a cold-only run between its own markers, leaving a full report in the same document', () => {
    const cold: ColdResults = {
      coldStart: [
        { function: 'events/get-event', bytes: 2048, ratio: 1.1, median_ms: 22, extras: 'jose 18K' },
      ],
      coldBaseline: { function: 'bare client', bytes: 1024, median_ms: 20 },
      run: { commit: 'abc1234', date: '2026-11-27', node: '22.1.0', cold_rounds: 19 },
    };
    const full = renderReport(results, 'a.json');
    const doc = `# Cold\n\n${full}\n\n${renderColdReport({ ...cold, coldStart: [] }, 'c.json')}\n`;

    const block = renderColdReport(cold, 'd.json');
    const out = withReport(doc, block, COLD_MARKERS);

    expect(block.startsWith(`${COLD_MARKERS.begin} source=d.json:`)).toBe(true);
    expect(block.endsWith(COLD_MARKERS.end)).toBe(true);
    expect(block).toContain('commit `abc1234`, 2026-11-27, Node 22.1.0; 19 cold-start rounds');
    expect(block).toContain('| events/get-event | 2 KB | 22.0 | 1.10 | ✓ | jose 18K |');
    expect(out).toBe(`# Cold\n\n${full}\n\n${block}\n`);
    expect(reportSource(out, COLD_MARKERS.begin)).toBe('d.json');
    expect(reportSource(out)).toBe('a.json');
  });

  it('renders a series run: its list cases as the cost table, its writes and its extend run', () => {
    const series: SeriesResults = {
      sizes: results.sizes,
      share: 0.3,
      cases: results.cases,
      writes: [
        {
          name: 'POST /events (weekly series, 104 occurrences)',
          note: 'weekly',
          requests: 5,
          occurrences: 104,
          p50_ms: 2500.4,
          max_ms: 2900,
          calls: 30,
          round_trips: 17.2,
          wcu: 1800,
          left: 1,
          finish_ms: 400,
          finish_calls: 12,
          finish_wcu: 300,
        },
      ],
      extend: {
        series: 1020,
        open: 1000,
        extended: 143,
        added: 143,
        failed: 0,
        seconds: 30.5,
        calls: 2500,
        rcu: 900,
        wcu: 7000,
      },
      run: {
        commit: 'abc1234',
        date: '2026-11-27',
        node: '22.1.0',
        cpus: 2,
        requests: 100,
        loadavg_before: [1, 2, 3],
        loadavg_after: [2, 2, 3],
        seconds: 600,
        setup: ['1000 events: 300 occurrences'],
      },
    };

    const block = renderSeriesReport(series, 's.json');

    expect(block.startsWith(`${SERIES_MARKERS.begin} source=s.json:`)).toBe(true);
    expect(block.endsWith(SERIES_MARKERS.end)).toBe(true);
    expect(block).toContain('### Recurring events (1k → 50k events, 30% in weekly series)');
    expect(block).toContain('- 1000 events: 300 occurrences');
    expect(block).toContain(
      '| `GET /events?page=<last>` | 10.0 → 10.0 | 4.0 → 4.0 | 2.0 → 2.0 | 40.0 → 40.0 | 10.0 → 20.0 | 1.00 | 2.00 | ✗ | ✓ ≤3 |',
    );
    expect(block).toContain(
      '| `POST /events (weekly series, 104 occurrences)` | 104 | 2500 | 2900 | 30.0 | 17.2 | 1800 | 1 of 5 | 400 | 12.0 | 300 |',
    );
    expect(block).toContain('over 1,020 series (1,000 open weekly ones');
    expect(block).toContain(
      '143 series extended by 143 occurrences (0 failed); 2,500 DynamoDB calls, 900 RCU, 7000 WCU.',
    );
  });

  it('renders a tickets run: its ticketed= list cases, the registrations and the race for seats', () => {
    const tickets: TicketsResults = {
      sizes: results.sizes,
      share: 0.05,
      cases: results.cases,
      registration: {
        requests: 200,
        errors: 0,
        p50_ms: 21.44,
        p99_ms: 80.5,
        max_ms: 95,
        calls: 4,
        round_trips: 4,
        wcu: 9,
      },
      race: {
        registrants: 200,
        seats: 50,
        asked_waitlist: 100,
        going: 50,
        waitlisted: 75,
        sold: 50,
        answered_going: 50,
        answered_waitlist: 75,
        sold_out: 74,
        other: { '503': 1 },
        settle_ms: 2750.4,
        calls: 4.4,
        wcu: 6,
      },
      run: {
        commit: 'abc1234',
        date: '2026-12-02',
        node: '22.1.0',
        cpus: 2,
        requests: 100,
        loadavg_before: [1, 2, 3],
        loadavg_after: [2, 2, 3],
        seconds: 900,
        setup: ['1000 events, 50 of them with a ticket'],
      },
    };

    const block = renderTicketsReport(tickets, 't.json');

    expect(block.startsWith(`${TICKETS_MARKERS.begin} source=t.json:`)).toBe(true);
    expect(block.endsWith(TICKETS_MARKERS.end)).toBe(true);
    expect(block).toContain('### Tickets (1k → 50k events, 5% of them with a ticket)');
    expect(block).toContain('- 1000 events, 50 of them with a ticket');
    expect(block).toContain(
      '| `GET /events?page=<last>` | 10.0 → 10.0 | 4.0 → 4.0 | 2.0 → 2.0 | 40.0 → 40.0 | 10.0 → 20.0 | 1.00 | 2.00 | ✗ | ✓ ≤3 |',
    );
    expect(block).toContain('| 200 | 21.4 | 80.5 | 95.0 | 4.0 | 4.0 | 9.0 | 0 |');
    expect(block).toContain(
      '**50 going** once settled (the ticket counts 50 seats taken; exactly the capacity), 75 on the waitlist; ' +
        'answers: 50 201 going, 75 201 waitlist, 74 409 `sold_out`, 1 × HTTP 503. Settled 2,750 ms',
    );
    // A run where the seats were not exactly taken says so.
    expect(renderTicketsReport({ ...tickets, race: { ...tickets.race, going: 51 } }, 't.json')).toContain(
      'NOT the capacity',
    );
  });

  it('appends the generated part to a document without one, or starts a new document', () => {
    const block = renderReport(results, 'a.json');

    expect(withReport('# Notes\n', block)).toBe(`# Notes\n\n${block}\n`);
    expect(withReport(undefined, block)).toBe(`# Benchmarks\n\n${block}\n`);
  });
});
