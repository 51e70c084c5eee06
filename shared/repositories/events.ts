import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type EventRecord, type EventRow, linkId, linksOf } from '../domain/event-record';
import { fitsKey } from '../domain/key-text';
import type { PostRecord, TermRecord } from '../domain/records';
import { patterns } from '../db/access-patterns';
import { ddb, tableName } from '../db/client';
import { unlessConditionFails } from '../db/conditional';
import { keys } from '../db/keys';
import { batchGet, type Item, itemKey, type PageSize, queryIndex } from '../db/query';
import { fromPostItem } from './posts';
import { fromTermItem } from './terms';

/**
 * Events whose event-local start lies in [low, high], in start order: every event (byStart index) or
 * only the featured ones (their partition of byAssignment, which also holds whole records).
 */
export async function* eventsStartingBetween(
  range: { low: string; high: string },
  pageSize?: PageSize,
  featuredOnly = false,
): AsyncGenerator<EventRecord> {
  const pattern = featuredOnly ? patterns.featuredByStart : patterns.eventsByStart;
  for await (const item of queryIndex({ ...pattern.query(range), pageSize }))
    yield fromPostItem(item) as EventRecord;
}

export interface Linked {
  terms: Map<number, TermRecord>;
  posts: Map<number, PostRecord>;
}

function linkedIdsOf(events: EventRecord[]) {
  const termIds = new Set<number>();
  const postIds = new Set<number>();
  for (const e of events) {
    for (const id of [...e.data.categories, ...e.data.tags]) termIds.add(id);
    for (const id of [...e.data.venues, ...e.data.organizers]) postIds.add(id);
  }
  return { termIds, postIds };
}

/** Adds the linked records among `items` to `into` (records being deleted are left out). */
function addLinked(items: Iterable<Item>, into: Linked): void {
  for (const item of items) {
    if (item.deleting !== undefined) continue;
    if (item.type === 'term') into.terms.set(Number(item.id), fromTermItem(item));
    else if (item.pk !== undefined) into.posts.set(Number(item.id), fromPostItem(item));
  }
}

/**
 * An event by slug through the slug index: one eventually consistent Query that returns the record,
 * for reads (a slug changed a moment ago may still name the event by its old slug). Undefined when the
 * index has no such event yet: the caller falls back to the slug guard.
 */
export async function eventBySlugIndex(slug: string): Promise<EventRecord | undefined> {
  // The slug is the index's sort key: one too long for a key names no event (and DynamoDB refuses it).
  if (!fitsKey(slug)) return undefined;
  for await (const item of queryIndex({ ...patterns.eventBySlug.query(slug), pageSize: 2 }))
    if (item.deleting === undefined && item.type === 'event' && item.slug === slug)
      return fromPostItem(item) as EventRecord;
  return undefined;
}

/** The terms, venues and organizers a page of events links to, in one batched read. */
export async function linkedRecordsOf(events: EventRecord[]): Promise<Linked> {
  const { termIds, postIds } = linkedIdsOf(events);
  const items = await batchGet([...[...termIds].map(keys.term), ...[...postIds].map(keys.post)]);
  const linked: Linked = { terms: new Map(), posts: new Map() };
  addLinked(items.values(), linked);
  return linked;
}

/**
 * A page of list rows as records, with the records they link to, in one batched read: the rows name
 * their links (EventRow `terms` / `posts`), so events and linked records are read together. Records
 * already at hand are not read again; a link the row did not name (an older row) costs one more read.
 */
export async function pageWithLinked(
  rows: EventRow[],
  known: Map<number, EventRecord>,
): Promise<{ records: EventRecord[]; linked: Linked }> {
  const wanted = rows.filter((r) => !known.has(r.eventId)).map((r) => keys.post(r.eventId));
  const hinted = rows.filter((r) => !known.has(r.eventId));
  const termIds = new Set(hinted.flatMap((r) => r.terms ?? []));
  const postIds = new Set(hinted.flatMap((r) => r.posts ?? []));
  for (const e of known.values())
    if (rows.some((r) => r.eventId === e.id)) {
      for (const id of [...e.data.categories, ...e.data.tags]) termIds.add(id);
      for (const id of [...e.data.venues, ...e.data.organizers]) postIds.add(id);
    }
  const items = await batchGet([...wanted, ...[...termIds].map(keys.term), ...[...postIds].map(keys.post)]);
  const records: EventRecord[] = [];
  for (const r of rows) {
    const item = known.has(r.eventId) ? undefined : items.get(itemKey(keys.post(r.eventId)));
    const record =
      known.get(r.eventId) ??
      (item && item.deleting === undefined ? (fromPostItem(item) as EventRecord) : undefined);
    if (record) records.push(record);
  }
  const linked: Linked = { terms: new Map(), posts: new Map() };
  const eventKeys = new Set(wanted.map(itemKey));
  addLinked(
    [...items.entries()].filter(([k]) => !eventKeys.has(k)).map(([, item]) => item),
    linked,
  );
  // Links the rows did not name: read after the records.
  const need = linkedIdsOf(records);
  const missing = [
    ...[...need.termIds].filter((id) => !termIds.has(id)).map(keys.term),
    ...[...need.postIds].filter((id) => !postIds.has(id)).map(keys.post),
  ];
  if (missing.length > 0) addLinked((await batchGet(missing)).values(), linked);
  return { records, linked };
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

/** IDs of the events in the featured partition of byAssignment. */
export async function featuredIndexIds(): Promise<Set<number>> {
  const ids = new Set<number>();
  for await (const item of queryIndex(patterns.featuredIds.query())) ids.add(Number(item.id));
  return ids;
}

/**
 * Puts an event's record in the featured partition, or takes it out, as its `featured` says, unless
 * it changed since it was read (its own write then set the keys) or is being deleted: false then.
 * Used by `npm run reindex`.
 */
export async function syncFeaturedIndex(e: EventRecord): Promise<boolean> {
  const k = keys.featuredIndex(e.data.featured, e.sortDate, e.id);
  const written = await unlessConditionFails(
    ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.post(e.id),
        UpdateExpression: k.gsi4pk ? 'SET gsi4pk = :pk, gsi4sk = :sk' : 'REMOVE gsi4pk, gsi4sk',
        ConditionExpression: 'version = :v AND attribute_not_exists(deleting)',
        ExpressionAttributeValues: {
          ':v': e.version,
          ...(k.gsi4pk ? { ':pk': k.gsi4pk, ':sk': k.gsi4sk } : {}),
        },
      }),
    ),
  );
  return written !== undefined;
}
