import { randomBytes } from 'node:crypto';
import {
  type ChangeEntry,
  type ChangeResource,
  type ChangeState,
  expirationOf,
  postResource,
  postState,
  TERM_STATE,
  termResource,
  timeOfPosition,
} from '../domain/changes';
import type { PostRecord, TermRecord } from '../domain/records';
import { patterns } from '../db/access-patterns';
import { tableName } from '../db/client';
import { keys } from '../db/keys';
import { collect, queryIndex } from '../db/query';
import type { PlannedWrite } from '../db/transact';
import { wallAt } from '../domain/wall-time';

/**
 * The change log: one item per record a write changes, put in the same transaction as the write (so
 * the log has every committed change and nothing else), in one partition ordered by position.
 */

/**
 * This process's writer tag: positions of concurrent writers in one millisecond never collide. Drawn on
 * the first write: a read function never seeds the random generator.
 */
let writer: string | undefined;
let lastMs = 0;
let sequence = 0;

/** The next position: the time, never going back within this process, then writer and sequence. */
export function nextPosition(now = Date.now()): string {
  const ms = Math.max(now, lastMs);
  sequence = ms === lastMs ? sequence + 1 : 0;
  lastMs = ms;
  writer ??= randomBytes(4).toString('hex');
  return `${new Date(ms).toISOString()}#${writer}#${String(sequence).padStart(6, '0')}`;
}

const wallUtc = wallAt;

export interface Change {
  resource: ChangeResource;
  id: number;
  before?: ChangeState;
  after?: ChangeState;
  modified_utc?: string;
}

/**
 * The log entry of one change, as an item of the write's transaction. It belongs with the record's
 * own items (`final`), so a multi-step write logs only once its last step commits. Its position is
 * taken when the write is built, right before it is sent (see docs/api-guide.md: the feed's settle delay).
 */
export function changeWrite(c: Change): PlannedWrite {
  const position = nextPosition();
  const at = timeOfPosition(position);
  return {
    item: {
      Put: {
        TableName: tableName(),
        Item: {
          ...keys.change(position),
          type: 'change',
          resource: c.resource,
          id: c.id,
          ...(c.before ? { before: c.before } : {}),
          ...(c.after ? { after: c.after } : {}),
          modified_utc: c.modified_utc ?? wallUtc(at),
          expiration: expirationOf(at),
        },
      },
    },
    final: true,
  };
}

/** A post's change, from its states before and after the write (undefined: absent). */
export function postChange(
  before: PostRecord<object> | undefined,
  after: PostRecord<object> | undefined,
  modifiedUtc?: string,
): PlannedWrite {
  const record = (after ?? before)!;
  return changeWrite({
    resource: postResource(record.type),
    id: record.id,
    before: before && postState(before),
    after: after && postState(after),
    modified_utc: modifiedUtc ?? after?.modified_utc,
  });
}

/** A term's change: terms are visible to everyone while they exist. */
export function termChange(before: TermRecord | undefined, after: TermRecord | undefined): PlannedWrite {
  const record = (after ?? before)!;
  const modified = after?.modified;
  return changeWrite({
    resource: termResource(record.taxonomy),
    id: record.id,
    before: before && TERM_STATE,
    after: after && TERM_STATE,
    modified_utc: modified ? wallUtc(Date.parse(modified)) : undefined,
  });
}

/**
 * One page of the log after `after`: at most `limit` entries, `limit + 1` asked for in one Query so
 * that `more` says whether the log goes on (a second Query only if DynamoDB stopped early, at 1 MB).
 */
export async function changesAfter(
  after: string,
  limit: number,
): Promise<{ entries: ChangeEntry[]; more: boolean }> {
  const items = await collect(
    queryIndex({ ...patterns.changesAfter.query(after), pageSize: limit + 1 }),
    limit + 1,
  );
  const entries = items.slice(0, limit).map((item): ChangeEntry => ({
    position: String(item.sk),
    resource: item.resource as ChangeResource,
    id: Number(item.id),
    before: item.before as ChangeState | undefined,
    after: item.after as ChangeState | undefined,
    modified_utc: String(item.modified_utc),
  }));
  return { entries, more: items.length > limit };
}
