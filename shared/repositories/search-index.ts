import { eventIndexWords } from '../domain/event-query';
import type { EventRecord } from '../domain/event-record';
import { wordHead } from '../domain/search';
import { patterns } from '../db/access-patterns';
import { tableName } from '../db/client';
import { keys } from '../db/keys';
import { batchDelete, batchPut, queryIndex } from '../db/query';
import type { PlannedWrite, WriteItem } from '../db/transact';

/**
 * The search index (decisions §8): one small item per event and indexed word (eventIndexWords), in
 * the event's partition and in the byAssignment index under the word's first two characters, so a
 * query word is one Query of the words it starts, whatever the size of the calendar.
 */

export function wordItem(eventId: number, word: string) {
  return {
    ...keys.word(eventId, word),
    ...keys.wordIndex(wordHead(word), word, eventId),
    type: 'word',
    eventId,
  };
}

type Texts = Pick<EventRecord, 'id' | 'title' | 'excerpt' | 'description'>;

const textsChanged = (a: Texts | undefined, b: Texts | undefined) =>
  a?.title !== b?.title || a?.excerpt !== b?.excerpt || a?.description !== b?.description;

/**
 * The word items an event write adds and removes, with their undo: none unless a text changes. An
 * event that no longer exists (`after` undefined) loses all of them.
 */
export function wordWrites(before: Texts | undefined, after: Texts | undefined): PlannedWrite[] {
  if (!textsChanged(before, after)) return [];
  const old = new Set(before ? eventIndexWords(before) : []);
  const now = new Set(after ? eventIndexWords(after) : []);
  const put = (item: Record<string, unknown>): WriteItem => ({ Put: { TableName: tableName(), Item: item } });
  const del = (id: number, w: string): WriteItem => ({
    Delete: { TableName: tableName(), Key: keys.word(id, w) },
  });
  const writes: PlannedWrite[] = [];
  for (const w of now)
    if (!old.has(w)) writes.push({ item: put(wordItem(after!.id, w)), undo: del(after!.id, w) });
  for (const w of old)
    if (!now.has(w)) writes.push({ item: del(before!.id, w), undo: put(wordItem(before!.id, w)) });
  return writes;
}

/** IDs of the events with an indexed word that `word` starts: one Query (paged by DynamoDB only). */
export async function eventsWithWordStart(word: string): Promise<Set<number>> {
  const ids = new Set<number>();
  for await (const item of queryIndex(patterns.eventsByWordStart.query(word, wordHead(word))))
    ids.add(Number(item.eventId));
  return ids;
}

/** The words an event's index items hold now (strongly consistent), for the rebuild. */
export async function storedWords(eventId: number): Promise<string[]> {
  const words: string[] = [];
  for await (const item of queryIndex(patterns.wordsOfEvent.query(eventId)))
    words.push(String(item.sk).slice(keys.wordPrefix.length));
  return words;
}

/** Puts word items outside a transaction (the rebuild). */
export const putWordItems = (items: Array<Record<string, unknown>>): Promise<void> => batchPut(items);

/** Deletes word items outside a transaction (the rebuild). */
export const deleteWordItems = (eventId: number, words: string[]) =>
  batchDelete(words.map((w) => keys.word(eventId, w)));
