import type { ParsedRow } from '../domain/csv-events';
import { DomainError, invalidParam } from '../domain/errors';
import { nextId } from '../db/ids';
import {
  claimRun,
  deleteImport as deleteRecord,
  deleteImported,
  getImport,
  importedOf,
  type ImportRecord,
  listImports as listRecords,
  putImport,
} from '../repositories/imports';
import type { Caller, Writer } from './context';

/** The imports API (editors and administrators; docs/import-export.md). */

export interface ImportInput {
  url?: string;
  calendar?: string;
  csv?: string;
  categories?: string[];
  status?: ImportRecord['status'];
  resync_minutes?: number | null;
}

const utc = (ms: number) => new Date(ms).toISOString();

const importNotFound = (id: number) =>
  new DomainError('not-found', 'rest_import_not_found', `Import ${id} does not exist.`);

export function importView(r: ImportRecord, root: string) {
  return {
    id: r.id,
    source: r.source,
    url: r.url,
    categories: r.categories,
    status: r.status,
    resync_minutes: r.resync_minutes,
    next_run_utc: r.next_run_ms === undefined ? null : utc(r.next_run_ms),
    events: r.events,
    created_utc: r.created_utc,
    modified_utc: r.modified_utc,
    last_run: r.last_run,
    rest_url: `${root}/imports/${r.id}`,
  };
}

/**
 * How long a claimed re-sync is its run's alone: the deployed import job's longest run (infra/jobs.ts),
 * after which an import whose run died is due again.
 */
export const RESYNC_LEASE_MS = 15 * 60_000;

/**
 * The runners, loaded when an import runs: listing, reading or deleting one needs neither ical.js nor
 * csv-parse, which would otherwise weigh on every imports function's cold start (docs/cold-start.md).
 */
const feedRunner = () => import('./import-run');
const csvRunner = () => import('./import-csv');

const nextRun = (minutes: number | null, from: number) => (minutes ? from + minutes * 60_000 : undefined);

/** Runs an import (a CSV one: its rows) and saves its report, its count of events and when it is next due. */
async function runAndSave(r: ImportRecord, text?: string, rows?: ParsedRow[]): Promise<ImportRecord> {
  const started = Date.now();
  const last_run = rows
    ? await (await csvRunner()).runCsvImport(r, rows)
    : await (await feedRunner()).runImport(r, text);
  const saved: ImportRecord = {
    ...r,
    last_run,
    events: (await importedOf(r.id)).size,
    next_run_ms: nextRun(r.resync_minutes, started),
  };
  if (saved.next_run_ms === undefined) delete saved.next_run_ms;
  await putImport(saved);
  return saved;
}

/** The rows of a CSV body; one that cannot be read (no Event Name column, ...) is a 400 naming `csv`. */
async function csvRows(text: string): Promise<ParsedRow[]> {
  const { CsvFileError, readCsvRows } = await import('../domain/csv-events');
  try {
    return readCsvRows(text);
  } catch (e) {
    if (e instanceof CsvFileError) throw invalidParam('csv', e.describe('The CSV'));
    throw e;
  }
}

/**
 * POST /imports: a feed by URL or as text (a 400 if it is not iCalendar), or events as CSV, imported at
 * once. A CSV import is a one-off; with dry_run it only reports and nothing is written.
 */
export async function createImport(
  body: ImportInput,
  query: { categories?: string; status?: ImportRecord['status']; dry_run?: boolean },
  ctx: Writer,
) {
  const given = [body.url, body.calendar, body.csv].filter((x) => x !== undefined).length;
  if (given !== 1)
    throw invalidParam(
      'url',
      'Give the feed as url, or its text as calendar (or a text/calendar body), or events as csv (or a text/csv body): one of them.',
    );
  if (body.resync_minutes && body.url === undefined)
    throw invalidParam('resync_minutes', 'resync_minutes needs a url to fetch the feed from again.');
  if (query.dry_run && body.csv === undefined)
    throw invalidParam('dry_run', 'dry_run is for events given as CSV (a text/csv body).');
  const categories =
    body.categories ??
    (query.categories ?? '')
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean);
  const status = body.status ?? query.status ?? 'publish';
  // Read before anything is saved: a CSV without its columns leaves no import behind.
  const rows = body.csv === undefined ? undefined : await csvRows(body.csv);
  if (rows && query.dry_run) {
    const last_run = await (
      await csvRunner()
    ).runCsvImport({ id: 0, categories, status, owner: ctx.user, root: ctx.root }, rows, true);
    return { dry_run: true as const, source: 'csv' as const, categories, status, last_run };
  }
  const text = rows ? undefined : (body.calendar ?? (await (await feedRunner()).fetchFeed(body.url!)));
  const now = Date.now();
  const record: ImportRecord = {
    id: await nextId('import'),
    source: rows ? 'csv' : body.url === undefined ? 'calendar' : 'url',
    root: ctx.root,
    url: body.url ?? null,
    categories,
    status,
    resync_minutes: body.resync_minutes ?? null,
    owner: ctx.user,
    events: 0,
    created_utc: utc(now),
    modified_utc: utc(now),
    last_run: { started_utc: utc(now), created: 0, updated: 0, unchanged: 0, trashed: 0, skipped: [] },
  };
  // Read before it is saved: a feed that is not iCalendar leaves no import behind.
  await runAndSave(record, text, rows).catch(async (e) => {
    if (e instanceof DomainError && e.kind === 'invalid' && record.events === 0)
      await deleteRecord(record.id);
    throw e;
  });
  return importView((await getImport(record.id))!, ctx.root);
}

async function load(id: number): Promise<ImportRecord> {
  const r = await getImport(id);
  if (!r) throw importNotFound(id);
  return r;
}

export async function listImports(ctx: Caller) {
  return { imports: (await listRecords()).map((r) => importView(r, ctx.root)) };
}

export const getImportView = async (id: number, ctx: Caller) => importView(await load(id), ctx.root);

export async function updateImport(id: number, body: Omit<ImportInput, 'calendar'>, ctx: Caller) {
  const r = await load(id);
  if ((body.url !== undefined || body.resync_minutes) && r.source !== 'url')
    throw invalidParam(
      body.url !== undefined ? 'url' : 'resync_minutes',
      'This import was given as text: it has no feed URL to fetch again.',
    );
  const next: ImportRecord = { ...r, modified_utc: utc(Date.now()) };
  for (const k of ['url', 'categories', 'status', 'resync_minutes'] as const)
    if (body[k] !== undefined) Object.assign(next, { [k]: body[k] });
  if (body.resync_minutes !== undefined) {
    const due = nextRun(next.resync_minutes, Date.now());
    if (due === undefined) delete next.next_run_ms;
    else next.next_run_ms = due;
  }
  // A feed is fetched again: PATCH with {} syncs now, and new categories or status reach every event.
  return importView(next.source === 'url' ? await runAndSave(next) : (await putImport(next), next), ctx.root);
}

/** Deletes the import and what it knew of its UIDs; the events it made stay. */
export async function deleteImport(id: number, ctx: Caller) {
  const r = await load(id);
  for (const uid of (await importedOf(id)).keys()) await deleteImported(id, uid);
  await deleteRecord(id);
  return importView(r, ctx.root);
}

/**
 * Re-runs every import whose re-sync is due (the local timer, the deployed schedule). Each is claimed
 * first, so runs that overlap sync it once. One that fails keeps the failure in its report and is due
 * again after its interval.
 */
export async function runDueImports(now = Date.now(), log: (line: string) => void = () => {}) {
  let ran = 0;
  for (const r of await listRecords()) {
    if (r.next_run_ms === undefined || r.next_run_ms > now || !r.url) continue;
    if (!(await claimRun(r.id, r.next_run_ms, now + RESYNC_LEASE_MS))) continue;
    ran++;
    try {
      const saved = await runAndSave(r);
      const l = saved.last_run;
      log(
        `import ${r.id}: ${l.created} created, ${l.updated} updated, ${l.unchanged} unchanged, ${l.trashed} trashed, ${l.skipped.length} skipped`,
      );
    } catch (e) {
      const error =
        e instanceof DomainError
          ? String(Object.values(e.data.params ?? {})[0] ?? e.message)
          : (e as Error).message;
      await putImport({
        ...r,
        next_run_ms: nextRun(r.resync_minutes, now),
        last_run: {
          started_utc: utc(now),
          finished_utc: utc(Date.now()),
          created: 0,
          updated: 0,
          unchanged: 0,
          trashed: 0,
          skipped: [],
          error,
        },
      });
      log(`import ${r.id}: ${error}`);
    }
  }
  return ran;
}
