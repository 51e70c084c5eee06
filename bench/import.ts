/**
 * `npm run bench -- --import [--import-events 10000]`: how fast the importers move a calendar in
 * (issue 30), on the bench's stack: records per second importing N events from a replay of a site
 * running the reference plugin (test/support/replay-site.ts at that size) and from a CSV file, and what
 * a second run of each, with nothing changed at the source, costs: its time, the API requests it sent
 * and the DynamoDB calls they made, of which writes (a no-change re-import should write nothing).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importCsv } from '../import-export/src/csv-import';
import { EVENT_COLUMNS } from '../import-export/src/csv-columns';
import { progress } from '../import-export/src/progress';
import { importSite } from '../import-export/src/site-import';
import { openSite } from '../import-export/src/site-source';
import type { ImportState } from '../import-export/src/state';
import { importClient } from '../import-export/src/target';
import type { Report } from '../import-export/src/upsert';
import { scaledRecords, startReplaySite } from '../test/support/replay-site';
import { recordRequests } from '../test/support/sent-requests';
import { type RunInfo, startRunInfo } from './run-info';
import { settled, usage, writeCalls } from './usage';

export interface ImportRun {
  name: string;
  events: number;
  seconds: number;
  events_per_second: number;
  /** Every record the run handled, terms, venues and organizers included. */
  records: number;
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
  /** HTTP requests the importer sent to the API (reads and writes). */
  requests: number;
  dynamodb_calls: number;
  dynamodb_writes: number;
}

export interface ImportResults {
  events: number;
  runs: ImportRun[];
  run: RunInfo;
}

const total = (r: Report, k: 'created' | 'updated' | 'unchanged' | 'skipped') =>
  Object.values(r.counts).reduce((n, c) => n + c[k], 0);

/** One import, timed, with its requests and DynamoDB calls counted. */
async function measured(
  name: string,
  events: number,
  base: string,
  run: () => Promise<Report>,
  log: (line: string) => void,
): Promise<ImportRun> {
  await settled();
  const before = { ...usage, writes: writeCalls.count };
  const requests = recordRequests(base);
  const t0 = performance.now();
  let report: Report;
  try {
    report = await run();
  } finally {
    requests.stop();
  }
  const seconds = (performance.now() - t0) / 1000;
  await settled();
  const out: ImportRun = {
    name,
    events,
    seconds: Math.round(seconds * 10) / 10,
    events_per_second: Math.round((events / seconds) * 10) / 10,
    records: ['created', 'updated', 'unchanged', 'skipped'].reduce(
      (n, k) => n + total(report, k as 'created'),
      0,
    ),
    created: total(report, 'created'),
    updated: total(report, 'updated'),
    unchanged: total(report, 'unchanged'),
    skipped: total(report, 'skipped'),
    requests: requests.sent.length,
    dynamodb_calls: usage.calls - before.calls,
    dynamodb_writes: writeCalls.count - before.writes,
  };
  log(
    `${name}: ${out.seconds} s, ${out.events_per_second} events/s; ${out.created} created, ${out.updated} updated, ` +
      `${out.unchanged} unchanged, ${out.skipped} skipped; ${out.requests} API requests, ` +
      `${out.dynamodb_calls} DynamoDB calls of which ${out.dynamodb_writes} writes`,
  );
  if (report.skipped.length)
    log(`  first skipped: ${report.skipped[0]!.record}: ${report.skipped[0]!.reason}`);
  return out;
}

/** A CSV file of `n` events in the reference plugin's columns, linked to a few venues, organizers and terms. */
function csvFile(n: number): string {
  const venues = ['Harbour Hall', 'Old Mill', 'Town Square', 'Riverside Stage'];
  const organizers = ['Folk Society', 'Jazz Club', 'City Events'];
  const lines = [EVENT_COLUMNS.slice(0, 22).join(',')];
  for (let i = 0; i < n; i++) {
    const day = new Date(Date.UTC(2027, 0, 1) + (i % 730) * 86_400_000).toISOString().slice(0, 10);
    const hour = 10 + (i % 10);
    const row: Record<string, string> = {
      'Event Name': `CSV Event ${i + 1}`,
      'Event Description': `<p>Event number ${i + 1}.</p>`,
      'Event Start Date': day,
      'Event Start Time': `${hour}:00`,
      'Event End Date': day,
      'Event End Time': `${hour + 2}:00`,
      Timezone: i % 2 ? 'Europe/Oslo' : 'America/New_York',
      'Event Venue Name': venues[i % venues.length]!,
      'Event Organizer Name': organizers[i % organizers.length]!,
      'Event Cost': String(5 + (i % 20)),
      'Event Currency Symbol': '$',
      'Event Category': i % 3 ? 'Music' : 'Talks',
      'Event Tags': `Week ${i % 52}`,
    };
    lines.push(
      EVENT_COLUMNS.slice(0, 22)
        .map((c) => row[c] ?? '')
        .join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

export async function runImportBench(o: {
  base: string;
  token: string;
  events: number;
  commit: string;
  log: (line: string) => void;
}): Promise<ImportResults> {
  const { base, token, events, log } = o;
  const finished = startRunInfo(o.commit);
  const api = importClient(base, token);
  const runs: ImportRun[] = [];

  log(`Replay site with ${events} events (the reference's records repeated), imported into ${base}:`);
  const site = await startReplaySite(scaledRecords(events));
  try {
    const auth = { user: site.user, appPassword: site.appPassword };
    const state: ImportState = { version: 1, source: 'bench-site', target: base, records: {} };
    const once = async () =>
      importSite({
        source: await openSite(site.origin, auth, true),
        api,
        state,
        dryRun: false,
        progress: progress(process.stderr),
        checkpoint: () => {},
      });
    runs.push(await measured('site import', events, base, once, log));
    runs.push(await measured('site re-import, nothing changed', events, base, once, log));
  } finally {
    await site.close();
  }

  log(`\nCSV file of ${events} events, imported into the same stack:`);
  const file = join(mkdtempSync(join(tmpdir(), 'cal-bench-csv-')), 'events.csv');
  writeFileSync(file, csvFile(events));
  const state: ImportState = { version: 1, source: 'bench-csv', target: base, records: {} };
  const once = () =>
    importCsv({ file, api, state, dryRun: false, progress: progress(process.stderr), checkpoint: () => {} });
  runs.push(await measured('CSV import', events, base, once, log));
  runs.push(await measured('CSV re-import, nothing changed', events, base, once, log));

  return {
    events,
    runs,
    run: finished(),
  };
}

export const IMPORT_MARKERS = {
  begin: '<!-- bench-import-report:begin',
  end: '<!-- bench-import-report:end -->',
};

/** The Markdown of an import run, between IMPORT_MARKERS (docs/benchmarks.md). */
export function renderImportReport(r: ImportResults, source: string): string {
  const rows = r.runs.map(
    (x) =>
      `| ${x.name} | ${x.seconds} | ${x.events_per_second} | ${x.created} / ${x.updated} / ${x.unchanged} / ${x.skipped} | ${x.requests} | ${x.dynamodb_calls} | ${x.dynamodb_writes} |`,
  );
  return [
    `${IMPORT_MARKERS.begin} source=${source}: written by \`npm run bench -- --import --report\`; edits between these markers are overwritten -->`,
    `### Import (${r.events.toLocaleString('en-US')} events)`,
    '',
    `Commit ${r.run.commit}, ${r.run.date}, Node ${r.run.node}, ${r.run.cpus} CPUs; load average (1, 5, 15 min) ${r.run.loadavg_before.join(', ')} before and ${r.run.loadavg_after.join(', ')} after. ` +
      'The local stack in the bench process (DynamoDB Local in memory); the importer sends 8 requests at a time. ' +
      'Records: created / updated / unchanged / skipped, terms, venues, organizers and origin tags included.',
    '',
    '| Run | Seconds | Events/s | Records | API requests | DynamoDB calls | of which writes |',
    '|---|--:|--:|--:|--:|--:|--:|',
    ...rows,
    IMPORT_MARKERS.end,
  ].join('\n');
}
