import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { User } from '../domain/roles';
import { patterns } from '../db/access-patterns';
import { ddb, tableName } from '../db/client';
import { unlessConditionFails } from '../db/conditional';
import { keys } from '../db/keys';
import { commit } from '../db/transact';
import { AlreadyCreated, type CreationKey, creationGuard } from './creations';
import { queryIndex } from '../db/query';
import { nextId } from '../db/ids';

/** A new import's ID. */
export const nextImportId = () => nextId('import');

/**
 * Feed and CSV imports: one item each in one partition, and per import one item for each feed UID it
 * made an event (or a series) of, so that a re-sync finds its events again and trashes only its own.
 */

export interface ImportReport {
  started_utc: string;
  finished_utc?: string;
  created: number;
  updated: number;
  unchanged: number;
  trashed: number;
  skipped: Array<{ line?: number; uid?: string; reason: string }>;
  error?: string;
}

/** How far an unfinished run got: `done` of the feed's `total` records (null before the feed is read). */
export interface ImportProgress {
  done: number;
  total: number | null;
}

export interface ImportRecord {
  id: number;
  source: 'url' | 'calendar' | 'csv';
  /** The API root its events' URLs are built from (re-syncs have no request). */
  root: string;
  url: string | null;
  categories: string[];
  status: 'publish' | 'draft' | 'pending' | 'private';
  resync_minutes: number | null;
  /** Epoch ms a re-sync is due; absent without one. */
  next_run_ms?: number;
  /** Who created it: re-syncs write as this user. */
  owner: User;
  events: number;
  /**
   * Set while a run is unfinished: a request that ran out of time left the rest to the re-sync job
   * (due at once), which continues it; `last_run` is the report so far.
   */
  progress?: ImportProgress;
  /** Epoch ms until which a run holds the import (a request's or the job's); PATCH waits for it (409). */
  running_until_ms?: number;
  /** Runs in a row the job stopped at its time limit: its next try is backed off (domain/import-backoff.ts). */
  timeouts?: number;
  created_utc: string;
  modified_utc: string;
  last_run: ImportReport;
}

/** What an import made of one UID: the event (a series: its first occurrence) and what was written. */
export interface ImportedEvent {
  uid: string;
  event_id: number;
  series: boolean;
  /** Digest of the body (and overrides) last written: the same one next time is `unchanged`. */
  digest: string;
  /** A series' overrides: occurrence wall time → the occurrence's event ID. */
  overrides?: Record<string, number>;
}

const strip = ({ pk: _pk, sk: _sk, type: _type, ...rest }: Record<string, unknown>) => rest;

export async function putImport(r: ImportRecord): Promise<void> {
  await ddb.send(
    new PutCommand({ TableName: tableName(), Item: { ...keys.importRecord(r.id), type: 'import', ...r } }),
  );
}

/**
 * Saves a new import, with the guard of its Idempotency-Key when it has one (creations.ts): the ID of
 * the import saved, which is an earlier one when a request with the same key made it first (a retry
 * after a timeout, say), so that the key makes one import however often it is sent.
 */
export async function createImportRecord(r: ImportRecord, creation?: CreationKey): Promise<number> {
  try {
    await commit([
      {
        item: {
          Put: {
            TableName: tableName(),
            Item: { ...keys.importRecord(r.id), type: 'import', ...r },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      },
      ...creationGuard(creation, r.id),
    ]);
    return r.id;
  } catch (e) {
    if (e instanceof AlreadyCreated) return e.id;
    throw e;
  }
}

/**
 * Claims a due re-sync: moves its due time from `due` to `until` unless another run moved it first, so
 * that overlapping runs (a deployed schedule's next invocation while a long one still runs) sync each
 * import once. A run that dies leaves the import due again at `until`. The import is held by the run
 * until then (`running_until_ms`: a PATCH meanwhile is a 409). True when this run has it.
 */
export async function claimRun(id: number, due: number, until: number, now: number): Promise<boolean> {
  const moved = await unlessConditionFails(
    ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.importRecord(id),
        UpdateExpression: 'SET next_run_ms = :until, running_until_ms = :until',
        // Not while a request's run (POST, PATCH) holds it.
        ConditionExpression:
          'next_run_ms = :due AND (attribute_not_exists(running_until_ms) OR running_until_ms <= :now)',
        ExpressionAttributeValues: { ':due': due, ':until': until, ':now': now },
      }),
    ),
  );
  return moved !== undefined;
}

/**
 * Holds an import for a run until `until`, unless another run holds it past `now`: false then. A PATCH
 * takes it before it changes and runs the import, so that it never runs beside another run of it.
 */
export async function holdImport(id: number, until: number, now: number): Promise<boolean> {
  const held = await unlessConditionFails(
    ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.importRecord(id),
        UpdateExpression: 'SET running_until_ms = :until',
        ConditionExpression:
          'attribute_exists(pk) AND (attribute_not_exists(running_until_ms) OR running_until_ms <= :now)',
        ExpressionAttributeValues: { ':until': until, ':now': now },
      }),
    ),
  );
  return held !== undefined;
}

export async function getImport(id: number): Promise<ImportRecord | undefined> {
  const out = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: keys.importRecord(id), ConsistentRead: true }),
  );
  return out.Item && (strip(out.Item) as unknown as ImportRecord);
}

export async function listImports(): Promise<ImportRecord[]> {
  const found: ImportRecord[] = [];
  for await (const item of queryIndex(patterns.allImports.query()))
    found.push(strip(item) as unknown as ImportRecord);
  return found;
}

export async function deleteImport(id: number): Promise<ImportRecord | undefined> {
  const out = await ddb.send(
    new DeleteCommand({ TableName: tableName(), Key: keys.importRecord(id), ReturnValues: 'ALL_OLD' }),
  );
  return out.Attributes && (strip(out.Attributes) as unknown as ImportRecord);
}

export async function importedOf(importId: number): Promise<Map<string, ImportedEvent>> {
  const found = new Map<string, ImportedEvent>();
  for await (const item of queryIndex(patterns.eventsOfImport.query(importId))) {
    const e = strip(item) as unknown as ImportedEvent;
    found.set(e.uid, e);
  }
  return found;
}

export async function putImported(importId: number, e: ImportedEvent): Promise<void> {
  await ddb.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.imported(importId, e.uid), type: 'imported', import_id: importId, ...e },
    }),
  );
}

export async function deleteImported(importId: number, uid: string): Promise<void> {
  await ddb.send(new DeleteCommand({ TableName: tableName(), Key: keys.imported(importId, uid) }));
}
