import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { PostType } from '../domain/records';
import { patterns } from '../db/access-patterns';
import { ddb, tableName } from '../db/client';
import { keys } from '../db/keys';
import { collect, queryIndex } from '../db/query';

/** A scheduled post's mark (keys.scheduled, written by posts.ts scheduleWrites): which post, and when. */
export interface ScheduledMark {
  id: number;
  type: PostType;
  date_utc: string;
}

/** The marks whose date has come by `nowUtc` (`Y-m-d H:i:s`), earliest first: one Query, no scan. */
export async function dueScheduled(nowUtc: string): Promise<ScheduledMark[]> {
  const items = await collect(queryIndex(patterns.dueScheduled.query(nowUtc)));
  return items.map((i) => ({ id: Number(i.id), type: i.type as PostType, date_utc: String(i.date_utc) }));
}

/** Drops a mark its post no longer matches (deleted, published or moved another way). */
export async function dropScheduled(mark: ScheduledMark): Promise<void> {
  await ddb.send(new DeleteCommand({ TableName: tableName(), Key: keys.scheduled(mark.date_utc, mark.id) }));
}
