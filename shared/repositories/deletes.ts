import type { EventData, EventRecord } from '../domain/event-record';
import type { LinkKind, PostRecord, TermRecord } from '../domain/records';
import { tableName } from '../db/client';
import { patterns } from '../db/access-patterns';
import { type Key, keys } from '../db/keys';
import { batchDelete, collect, queryIndex } from '../db/query';
import { commit, lostRace, MAX_TRANSACTION_ITEMS, type Write } from '../db/transact';
import { postState } from '../domain/changes';
import { changeWrite, postChange, termChange } from './changes';
import { eventIdsLinkedTo } from './links';
import { getPosts, statusCount } from './posts';
import { staleTreeWrites } from './tallies';
import { termTotalsWrite, unordered } from './terms';
import { syncTermsInUse } from './term-use';
import { linkedScope, treeScope } from '../domain/tallies';

/**
 * Permanent delete of a record that events link to (a venue, organizer, category or tag), whatever the
 * number of events. DynamoDB transactions hold 100 items, so it runs in steps, each one idempotent:
 *
 * 1. the tombstone: the record gets `deleting` (and leaves its status total) in one transaction.
 *    From then on every read treats it as gone (404, unknown in filters, not embedded), and no event
 *    write can link to it (their link condition requires no tombstone); the change log says it is
 *    removed in that same transaction;
 * 2. unlinking: every event that links to it loses the ID and the link item, in transactions of up to
 *    30 events, each under the event's version (an event changed meanwhile is read again), each event
 *    logged as updated;
 * 3. clean-up: its tallies go, and a category's children move up to its parent (logged as updated);
 * 4. the record, its slug guard and (terms) name guard go in one last transaction.
 *
 * A delete interrupted anywhere is finished by sending the same DELETE again: it finds the tombstone
 * and resumes at step 2.
 */
export type Deletable =
  | { kind: 'VENUE' | 'ORGANIZER'; record: PostRecord<object> }
  | {
      kind: 'TERM';
      record: TermRecord;
      children: () => Promise<TermRecord[]>;
      /** Categories whose subtree tallies the delete makes wrong: flagged with the tombstone. */
      staleTrees?: number[];
    };

/** Three items per event (link, event, change-log entry) within a transaction's 100. */
const EVENTS_PER_STEP = 30;

const keyOf = (d: Deletable): Key => (d.kind === 'TERM' ? keys.term(d.record.id) : keys.post(d.record.id));

/** Step 1: the tombstone, under the version the caller read (a concurrent change is `stale`). */
export async function markDeleting(d: Deletable, now: string, stale: () => Error): Promise<void> {
  const writes: Write[] = [
    {
      item: {
        Update: {
          TableName: tableName(),
          Key: keyOf(d),
          // A term leaves its taxonomy's name order (and totals) with its tombstone, as it leaves the lists.
          UpdateExpression:
            'SET deleting = :now, version = version + :one' +
            (d.kind === 'TERM' ? ' REMOVE gsi2pk, gsi2sk' : ''),
          ConditionExpression: 'version = :v AND attribute_not_exists(deleting)',
          ExpressionAttributeValues: { ':now': now, ':one': 1, ':v': d.record.version },
        },
      },
      onConflict: stale,
    },
  ];
  if (d.kind !== 'TERM') writes.push(...statusCount(d.record.type, d.record.status, undefined));
  else {
    writes.push(...termTotalsWrite(d.record.taxonomy, -1, -unordered(d.record.name)));
    writes.push(...staleTreeWrites(d.staleTrees ?? [], now));
  }
  writes.push(d.kind === 'TERM' ? termChange(d.record, undefined) : postChange(d.record, undefined));
  await commit(writes);
}

const fieldOf = (kind: LinkKind, e: EventRecord, id: number): keyof EventData =>
  kind === 'VENUE'
    ? 'venues'
    : kind === 'ORGANIZER'
      ? 'organizers'
      : e.data.categories.includes(id)
        ? 'categories'
        : 'tags';

/** Unlinks up to EVENTS_PER_STEP events in one transaction; false when one of them changed meanwhile. */
async function unlinkStep(kind: LinkKind, id: number, eventIds: number[]): Promise<boolean> {
  const events = await getPosts<EventData>(eventIds);
  const writes: Write[] = [];
  for (const eventId of eventIds) {
    writes.push({ item: { Delete: { TableName: tableName(), Key: keys.link(eventId, kind, id) } } });
    const event = events.get(eventId) as EventRecord | undefined;
    if (!event || event.type !== 'event') continue;
    const field = fieldOf(kind, event, id);
    const list = event.data[field] as number[];
    if (!list.includes(id)) continue;
    writes.push({
      item: {
        Update: {
          TableName: tableName(),
          Key: keys.post(eventId),
          UpdateExpression: 'SET #d.#f = :list, version = :next',
          ConditionExpression: 'version = :current',
          ExpressionAttributeNames: { '#d': 'data', '#f': field },
          ExpressionAttributeValues: {
            ':list': list.filter((x) => x !== id),
            ':next': event.version + 1,
            ':current': event.version,
          },
        },
      },
      onConflict: () => new EventChanged(),
    });
    // Its visibility stays; its links changed (the time of the change, not the event's modified).
    const state = postState(event);
    writes.push(changeWrite({ resource: 'events', id: eventId, before: state, after: state }));
  }
  try {
    await commit(writes);
    return true;
  } catch (e) {
    if (e instanceof EventChanged || lostRace(e)) return false;
    throw e;
  }
}

class EventChanged extends Error {}

/** Step 2: every event that links to the record loses it. Reads the link index until it is empty. */
export async function unlinkAllEvents(kind: LinkKind, id: number): Promise<void> {
  for (let round = 0; round < 1000; round++) {
    const eventIds = [...new Set(await eventIdsLinkedTo(kind, id))];
    if (eventIds.length === 0) return;
    for (let i = 0; i < eventIds.length; i += EVENTS_PER_STEP)
      await unlinkStep(kind, id, eventIds.slice(i, i + EVENTS_PER_STEP));
  }
  throw new Error(`events kept linking to ${kind}#${id} while it was being deleted`);
}

/**
 * Step 3: the record's tallies (a category's subtree ones too), and a category's children (they
 * move up to its parent).
 */
async function cleanUp(d: Deletable, now: string): Promise<void> {
  const scopes = [
    linkedScope({ kind: d.kind, id: d.record.id }),
    ...(d.kind === 'TERM' ? [treeScope(d.record.id)] : []),
  ];
  const tallies = (
    await Promise.all(scopes.map((scope) => collect(queryIndex(patterns.tallyItemKeys.query(scope)))))
  ).flat();
  await batchDelete(tallies.map((t) => ({ pk: String(t.pk), sk: String(t.sk) })));
  if (d.kind !== 'TERM') return;
  const children = (await d.children()).filter((c) => c.parent === d.record.id);
  const perStep = MAX_TRANSACTION_ITEMS / 2; // each child and its change-log entry
  for (let i = 0; i < children.length; i += perStep)
    await commit(
      children.slice(i, i + perStep).flatMap((c) => [
        {
          item: {
            Update: {
              TableName: tableName(),
              Key: keys.term(c.id),
              UpdateExpression: 'SET parent = :p, modified = :m, version = version + :one',
              ConditionExpression: 'attribute_exists(pk) AND parent = :me',
              ExpressionAttributeValues: { ':p': d.record.parent, ':m': now, ':one': 1, ':me': d.record.id },
            },
          },
        },
        termChange(c, { ...c, parent: d.record.parent, modified: now }),
      ]),
    );
}

/** Step 4: the record and its guards. */
async function removeRecord(d: Deletable): Promise<void> {
  const guards: Key[] =
    d.kind === 'TERM'
      ? [
          keys.slugGuard(d.record.taxonomy, d.record.slug),
          keys.termNameGuard(d.record.taxonomy, d.record.name),
        ]
      : [keys.slugGuard(d.record.type, d.record.slug)];
  await commit([
    {
      item: {
        Delete: { TableName: tableName(), Key: keyOf(d), ConditionExpression: 'attribute_exists(deleting)' },
      },
    },
    ...guards.map((Key) => ({ item: { Delete: { TableName: tableName(), Key } } })),
  ]);
}

/** Steps 2–4, for a record whose tombstone is written (by this request or an interrupted one). */
export async function finishDelete(d: Deletable, now: string): Promise<void> {
  // A term leaves the in-use orders and their totals with its tombstone, as it leaves the name order
  // (a sync never puts a term being deleted back), not after its events are unlinked.
  if (d.kind === 'TERM') await syncTermsInUse([d.record.id]);
  await unlinkAllEvents(d.kind, d.record.id);
  await cleanUp(d, now);
  try {
    await removeRecord(d);
  } catch (e) {
    // Finished by a concurrent repeat of the same DELETE: nothing is left to do.
    if ((e as { name?: string }).name !== 'TransactionCanceledException') throw e;
  }
}
