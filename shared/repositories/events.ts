import { type EventRecord, linkId, linksOf } from '../domain/event-record';
import type { PostRecord, TermRecord } from '../domain/records';
import { keys } from '../db/keys';
import { batchGet, itemKey, queryIndex } from '../db/query';
import { fromPostItem } from './posts';
import { fromTermItem } from './terms';

/** Events whose event-local start lies in [low, high], in start order (byStart index). */
export async function* eventsStartingBetween(
  range: { low: string; high: string },
  pageSize?: number,
): AsyncGenerator<EventRecord> {
  for await (const item of queryIndex({
    index: 'byStart',
    partition: keys.typePartition('event'),
    sort: { between: [range.low, range.high] },
    pageSize,
  }))
    yield fromPostItem(item) as EventRecord;
}

/** The terms, venues and organizers a page of events links to, in one batched read. */
export async function linkedRecordsOf(
  events: EventRecord[],
): Promise<{ terms: Map<number, TermRecord>; posts: Map<number, PostRecord> }> {
  const termIds = new Set<number>();
  const postIds = new Set<number>();
  for (const e of events) {
    for (const id of [...e.data.categories, ...e.data.tags]) termIds.add(id);
    for (const id of [...e.data.venues, ...e.data.organizers]) postIds.add(id);
  }
  const items = await batchGet([...[...termIds].map(keys.term), ...[...postIds].map(keys.post)]);
  const terms = new Map<number, TermRecord>();
  const posts = new Map<number, PostRecord>();
  for (const item of items.values()) {
    if (item.deleting !== undefined) continue;
    if (item.type === 'term') terms.set(Number(item.id), fromTermItem(item));
    else posts.set(Number(item.id), fromPostItem(item));
  }
  return { terms, posts };
}

/**
 * The links of an event (`KIND#id`) whose records are gone or being deleted: a write of the event
 * drops them instead of counting them (their delete unlinks them, or already has). One batched read.
 */
export async function goneLinkTargets(e: EventRecord): Promise<Set<string>> {
  const links = linksOf(e);
  if (links.length === 0) return new Set();
  const items = await batchGet(links.map((l) => keys.linkTarget(l.kind, l.id)));
  const gone = new Set<string>();
  for (const l of links) {
    const item = items.get(itemKey(keys.linkTarget(l.kind, l.id)));
    if (!item || item.deleting !== undefined) gone.add(linkId(l));
  }
  return gone;
}
