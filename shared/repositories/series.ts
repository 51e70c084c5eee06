import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { EventRecord } from '../domain/event-record';
import type { SharedFields } from '../domain/series-fields';
import { ddb, tableName } from '../db/client';
import { keys } from '../db/keys';
import type { PlannedWrite } from '../db/transact';
import { patterns } from '../db/access-patterns';
import { queryIndex } from '../db/query';

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
  const out = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: keys.series(id), ConsistentRead: true }),
  );
  if (!out.Item) return undefined;
  const { pk: _pk, sk: _sk, ...item } = out.Item;
  return item as SeriesItem;
}

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
        Item: { ...keys.series(next.id), ...keys.seriesIndex(next.id), type: 'series', ...next },
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

/** Removes a finished journal, unless a later write replaced it. */
export async function clearJournal(id: number, token: string): Promise<void> {
  try {
    await ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.series(id),
        UpdateExpression: 'REMOVE journal',
        ConditionExpression: 'journal.#t = :t',
        ExpressionAttributeNames: { '#t': 'token' },
        ExpressionAttributeValues: { ':t': token },
      }),
    );
  } catch (e) {
    if ((e as { name?: string }).name !== 'ConditionalCheckFailedException') throw e;
  }
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
