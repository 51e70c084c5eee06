import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { EventRecord } from '../domain/event-record';
import type { SharedFields } from '../domain/series-fields';
import { ddb, tableName } from '../db/client';
import { unlessConditionFails } from '../db/conditional';
import { keys } from '../db/keys';
import type { PlannedWrite } from '../db/transact';
import { patterns } from '../db/access-patterns';
import { queryIndex } from '../db/query';
import { nextIds } from '../db/ids';
import { commit } from '../db/transact';

/** IDs for `n` new occurrences (posts). */
export const newOccurrenceIds = (n: number) => nextIds('post', n);

/** Removes a series' item (its occurrences are gone: a forced delete of the whole series). */
export const deleteSeriesItem = (id: number) =>
  commit([{ item: { Delete: { TableName: tableName(), Key: keys.series(id) } } }]);

/**
 * The series item of a recurring event (docs/recurrence.md, "Storage"): what every occurrence follows,
 * and the journal of a write still under way.
 */

/** The fields the occurrences share: an event's own fields, without its times and series. */
export type Template = SharedFields;

/** One occurrence still to bring in line: create or update it (its rule start), or remove it. */
export type JournalEntry = { id: number; start: string } | { id: number; remove: true };

export interface Journal {
  /** Tells this write's journal from a later one (the journal is removed only by its own write). */
  token: string;
  entries: JournalEntry[];
  /** Fields set on every occurrence, its own edits notwithstanding (a trash of every occurrence). */
  override?: string[];
  /** How many occurrences its last writer (the request or a finisher run) left to write; unset before. */
  pending?: number;
}

export interface SeriesItem {
  id: number;
  lines: string[];
  text: string;
  timezone: string;
  allDay: boolean;
  /** The first occurrence's wall times: the rule's anchor and every occurrence's length. */
  start: string;
  end: string;
  /** Occurrences are written up to this wall time; `ended`: the rule ends before it. */
  horizon: string;
  ended: boolean;
  /** Slug of the series: occurrences after the first are `<slug>-<YYYY-MM-DD>`. */
  slug: string;
  template: Template;
  /** Occurrence IDs and their rule starts. */
  members: Record<string, string>;
  version: number;
  journal?: Journal;
}

export const templateOf = (e: EventRecord): Template => {
  const { series: _s, ...data } = e.data;
  return {
    title: e.title,
    description: e.description,
    excerpt: e.excerpt,
    status: e.status,
    author: e.author,
    date: e.date,
    date_utc: e.date_utc,
    data,
  };
};

export async function getSeries(id: number): Promise<SeriesItem | undefined> {
  return (await getSeriesState(id))?.series;
}

/**
 * The series item, and when its journal falls due for the finisher (epoch ms): before that, the
 * request that wrote the journal may still be writing it.
 */
export async function getSeriesState(
  id: number,
): Promise<{ series: SeriesItem; journalDueMs?: number; journalDueKey?: string } | undefined> {
  const out = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: keys.series(id), ConsistentRead: true }),
  );
  if (!out.Item) return undefined;
  // The journal's index keys are the write's own (seriesWrite), never carried into the next one.
  const { pk: _pk, sk: _sk, gsi2pk: _jp, gsi2sk: due, ...item } = out.Item;
  const dueMs = typeof due === 'string' ? Date.parse(due.split('#')[0]!) : NaN;
  return {
    series: item as SeriesItem,
    ...(Number.isFinite(dueMs) ? { journalDueMs: dueMs, journalDueKey: due as string } : {}),
  };
}

/**
 * How long after a write the finisher may take up the journal it left: longer than a request runs
 * (the API functions' 10 s), so the finisher does not write beside the request that is still writing.
 */
export const JOURNAL_DUE_AFTER_MS = 15_000;

/**
 * The series item's write in the transaction of the occurrence a request names: a new series, or the
 * next version of one nobody changed since it was read (`stale` otherwise).
 */
export function seriesWrite(
  next: SeriesItem,
  previousVersion: number | undefined,
  stale: () => Error,
): PlannedWrite {
  return {
    item: {
      Put: {
        TableName: tableName(),
        Item: {
          ...keys.series(next.id),
          ...keys.seriesIndex(next.id),
          type: 'series',
          ...next,
          ...(next.journal ? keys.journalIndex(next.id, Date.now() + JOURNAL_DUE_AFTER_MS) : {}),
        },
        ConditionExpression: previousVersion === undefined ? 'attribute_not_exists(pk)' : 'version = :v',
        ...(previousVersion === undefined ? {} : { ExpressionAttributeValues: { ':v': previousVersion } }),
      },
    },
    onConflict: stale,
    final: true,
  };
}

/** Every series, as the extend job needs them: ID, horizon, whether it ended, and any journal. */
export async function* allSeries(): AsyncGenerator<Pick<SeriesItem, 'id' | 'horizon' | 'ended' | 'journal'>> {
  for await (const item of queryIndex(patterns.allSeries.query()))
    yield item as Pick<SeriesItem, 'id' | 'horizon' | 'ended' | 'journal'>;
}

/** The series whose journal is left and due for the finisher at `nowMs`, with their due keys. */
export async function dueJournals(nowMs: number): Promise<Array<{ id: number; due: string }>> {
  const due: Array<{ id: number; due: string }> = [];
  for await (const item of queryIndex(patterns.dueSeriesWrites.query(new Date(nowMs).toISOString())))
    due.push({ id: Number(item.id), due: String(item.gsi2sk) });
  return due;
}

/**
 * Moves a journal's due time from `seen` to `untilMs` (a finisher's claim, or its release); its new due key, or undefined when
 * it is no longer `seen`: another finisher claimed it, a write replaced it or it is finished.
 */
export async function moveJournalDue(id: number, seen: string, untilMs: number): Promise<string | undefined> {
  const { gsi2sk } = keys.journalIndex(id, untilMs);
  const moved = await unlessConditionFails(
    ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.series(id),
        UpdateExpression: 'SET gsi2sk = :next',
        ConditionExpression: 'gsi2sk = :seen',
        ExpressionAttributeValues: { ':next': gsi2sk, ':seen': seen },
      }),
    ),
  );
  return moved ? gsi2sk : undefined;
}

/**
 * Notes how many occurrences a writer left in the journal when it stopped (issue 38), what
 * `GET /events?series=` says until the journal is done; nothing when a later write replaced it.
 */
export async function noteJournalLeft(id: number, token: string, pending: number): Promise<void> {
  await unlessConditionFails(
    ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.series(id),
        UpdateExpression: 'SET journal.#p = :p',
        ConditionExpression: 'journal.#t = :t',
        ExpressionAttributeNames: { '#t': 'token', '#p': 'pending' },
        ExpressionAttributeValues: { ':t': token, ':p': pending },
      }),
    ),
  );
}

/** Removes a finished journal (and its place among the due ones), unless a later write replaced it. */
export async function clearJournal(id: number, token: string): Promise<void> {
  await unlessConditionFails(
    ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.series(id),
        UpdateExpression: 'REMOVE journal, gsi2pk, gsi2sk',
        ConditionExpression: 'journal.#t = :t',
        ExpressionAttributeNames: { '#t': 'token' },
        ExpressionAttributeValues: { ':t': token },
      }),
    ),
  );
}

/** Takes an occurrence deleted for good out of its series' members (in the delete's transaction). */
export function leaveSeries(seriesId: number, eventId: number): PlannedWrite {
  return {
    item: {
      Update: {
        TableName: tableName(),
        Key: keys.series(seriesId),
        UpdateExpression: 'REMOVE members.#id',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#id': String(eventId) },
      },
    },
  };
}
