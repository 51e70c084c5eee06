import type { ParsedRow } from '../../domain/csv-events';
import { DomainError, importRunning, invalidParam } from '../../domain/errors';
import { runDeadline, timedOutRun } from '../../domain/import-budget';
import {
  claimRun,
  createImportRecord,
  deleteImport as deleteRecord,
  deleteImported,
  getImport,
  holdImport,
  importedOf,
  type ImportProgress,
  type ImportRecord,
  listImports as listRecords,
  putImport,
  nextImportId,
} from '../../repositories/imports';
import type { Caller, Writer } from '../common';

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
    progress: r.progress ?? null,
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
const feedRunner = () => import('./run');
const csvRunner = () => import('./csv');

const nextRun = (minutes: number | null, from: number) => (minutes ? from + minutes * 60_000 : undefined);

/** How a run is made: its text (else fetched), its CSV rows, when it must stop, and whether the job runs it. */
interface RunOptions {
  text?: string;
  rows?: ParsedRow[];
  deadline?: number;
  /** The feed did not come before the deadline: nothing is run, the job fetches it again. */
  late?: boolean;
  /** The re-sync job runs it: one that stops at its deadline is backed off, not due at once. */
  job?: boolean;
}

/**
 * Runs an import (a CSV one: its rows) and saves its report, its count of events and when it is next
 * due. A run that stops at its deadline is saved with its progress and due at once: the re-sync job
 * continues it (and a request answers 202).
 */
async function runAndSave(r: ImportRecord, o: RunOptions = {}): Promise<ImportRecord> {
  const started = Date.now();
  let report = r.last_run;
  let progress: ImportProgress | undefined;
  if (o.rows) report = await (await csvRunner()).runCsvImport(r, o.rows);
  else if (o.late) progress = r.progress ?? { done: 0, total: null };
  else {
    const runner = await feedRunner();
    try {
      ({ report, progress } = await runner.runImport(r, o.text, o.deadline));
    } catch (e) {
      if (!(e instanceof runner.OutOfTime)) throw e;
      // The feed did not come in time: nothing was done, the job fetches it again.
      progress = r.progress ?? { done: 0, total: null };
    }
  }
  const saved: ImportRecord = { ...r, last_run: report, events: (await importedOf(r.id)).size };
  delete saved.running_until_ms;
  delete saved.progress;
  delete saved.next_run_ms;
  delete saved.timeouts;
  if (progress && o.job)
    Object.assign(saved, { progress }, timedOutRun(report, progress, r.timeouts ?? 0, Date.now()));
  else if (progress) Object.assign(saved, { progress, next_run_ms: Date.now() });
  else {
    const due = nextRun(r.resync_minutes, started);
    if (due !== undefined) saved.next_run_ms = due;
  }
  await putImport(saved);
  return saved;
}

/** When a request's run must stop: its function's remaining time, less what saving and answering take. */
const deadlineOf = (ctx: Caller & Pick<Writer, 'context'>) =>
  runDeadline(ctx.context?.getRemainingTimeInMillis?.());

/** The rows of a CSV body; one that cannot be read (no Event Name column, ...) is a 400 naming `csv`. */
async function csvRows(text: string): Promise<ParsedRow[]> {
  const { CsvFileError, readCsvRows } = await import('../../domain/csv-events');
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
  const deadline = deadlineOf(ctx);
  const runner = rows ? undefined : await feedRunner();
  // Fetched before anything is saved: a feed that cannot be had leaves no import behind. One that does
  // not come in the request's time is left to the job.
  let text = body.calendar;
  if (body.url !== undefined)
    text = await runner!.fetchFeed(body.url, deadline).catch((e) => {
      if (e instanceof runner!.OutOfTime) return undefined;
      throw e;
    });
  const now = Date.now();
  const record: ImportRecord = {
    id: await nextImportId(),
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
  // Saved before the run, held by it: a run cut short leaves its import (and the events it knows).
  // With an Idempotency-Key whose import exists (its first request timed out, say): that import.
  const saved = await createImportRecord({ ...record, running_until_ms: holdUntil(ctx) }, ctx.creation);
  if (saved !== record.id) return importView(await load(saved), ctx.root);
  const late = record.url !== null && text === undefined;
  // A feed given as text cannot be fetched again by the job: it runs to its end, as before.
  const until = record.url === null ? undefined : deadline;
  await runAndSave(record, { text, rows, deadline: until, late }).catch(async (e) => {
    // A feed that is not iCalendar leaves no import behind.
    if (e instanceof DomainError && e.kind === 'invalid' && record.events === 0)
      await deleteRecord(record.id);
    throw e;
  });
  return importView((await getImport(record.id))!, ctx.root);
}

/** Until when a request's run holds its import: the end of its function's time (else the job's lease). */
function holdUntil(ctx: Pick<Writer, 'context'>): number {
  const left = ctx.context?.getRemainingTimeInMillis?.();
  return Date.now() + (left ?? RESYNC_LEASE_MS);
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

export async function updateImport(
  id: number,
  body: Omit<ImportInput, 'calendar'>,
  ctx: Caller & Pick<Writer, 'context'>,
) {
  const r = await load(id);
  if ((body.url !== undefined || body.resync_minutes) && r.source !== 'url')
    throw invalidParam(
      body.url !== undefined ? 'url' : 'resync_minutes',
      'This import was given as text: it has no feed URL to fetch again.',
    );
  // Held first: a change while a run goes on (the request's, or the job continuing one) is a 409.
  const hold = holdUntil(ctx);
  if (!(await holdImport(id, hold, Date.now()))) {
    const now = await getImport(id);
    if (!now) throw importNotFound(id);
    throw importRunning(id, now.running_until_ms ?? hold);
  }
  // Read again under the hold: a run that ended just before left its progress and report.
  const { running_until_ms: _h, ...held } = await load(id);
  const next: ImportRecord = { ...held, modified_utc: utc(Date.now()) };
  for (const k of ['url', 'categories', 'status', 'resync_minutes'] as const)
    if (body[k] !== undefined) Object.assign(next, { [k]: body[k] });
  if (body.resync_minutes !== undefined) {
    const due = nextRun(next.resync_minutes, Date.now());
    if (due === undefined) delete next.next_run_ms;
    else next.next_run_ms = due;
  }
  if (next.source !== 'url') {
    delete next.running_until_ms;
    await putImport(next);
    return importView(next, ctx.root);
  }
  // A feed is fetched again: PATCH with {} syncs now, and new categories or status reach every event.
  // A run cut short is continued by the job, as after POST.
  return importView(await runAndSave(next, { deadline: deadlineOf(ctx) }), ctx.root);
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
export async function runDueImports(
  now = Date.now(),
  log: (line: string) => void = () => {},
  deadline?: number,
) {
  let ran = 0;
  for (const r of await listRecords()) {
    if (r.next_run_ms === undefined || r.next_run_ms > now || !r.url) continue;
    if (deadline !== undefined && Date.now() >= deadline) break;
    // Its last claim ran out without saving (the function was stopped): a timed-out run too.
    const died = r.running_until_ms !== undefined && r.running_until_ms === r.next_run_ms;
    if (!(await claimRun(r.id, r.next_run_ms, now + RESYNC_LEASE_MS, now))) continue;
    ran++;
    if (died) {
      const { running_until_ms: _h, ...rest } = r;
      const progress = r.progress ?? { done: 0, total: null };
      const backedOff = { ...rest, progress, ...timedOutRun(r.last_run, progress, r.timeouts ?? 0, now) };
      await putImport(backedOff);
      log(`import ${r.id}: ${backedOff.last_run.error}`);
      continue;
    }
    try {
      const saved = await runAndSave(r, { deadline, job: true });
      const l = saved.last_run;
      log(
        `import ${r.id}: ${l.created} created, ${l.updated} updated, ${l.unchanged} unchanged, ${l.trashed} trashed, ${l.skipped.length} skipped`,
      );
    } catch (e) {
      const error =
        e instanceof DomainError
          ? String(Object.values(e.data.params ?? {})[0] ?? e.message)
          : (e as Error).message;
      const { progress: _p, running_until_ms: _h, ...rest } = r;
      await putImport({
        ...rest,
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
