import {
  type EventLink,
  type EventRecord,
  isTicketed,
  type LinkField,
  linkId,
  linksOf,
  linkWeight,
  listable,
  rowOf,
} from '../domain/event-record';
import {
  allScope,
  ancestorsOrSelf,
  dayKey,
  featuredScope,
  isLong,
  linkedScope,
  sumAttr,
  tallyAttr,
  tallyMark,
  tallyMonth,
  type TallyScope,
  ticketedScope,
  treeScope,
  venueTreeScope,
} from '../domain/tallies';
import { tableName } from '../db/client';
import { keys, type Key } from '../db/keys';
import type { PlannedWrite, WriteItem } from '../db/transact';
import { wordWrites } from './search-index';

/**
 * The tally scopes of an event: everything, featured, ticketed, each link, and (given the category taxonomy's
 * parent map) the subtree of every ancestor-or-self of its categories, once per event, alone and with
 * each of its venues.
 */
function tallyScopes(
  e: EventRecord,
  skip: Set<string>,
  parentOf?: ReadonlyMap<number, number>,
): TallyScope[] {
  // Each link once (by its identity), unless skipped.
  const linked = new Map(linksOf(e).map((l) => [linkId(l), l]));
  for (const id of skip) linked.delete(id);
  const trees = parentOf
    ? ancestorsOrSelf(
        e.data.categories.filter((c) => !skip.has(linkId({ kind: 'TERM', id: c }))),
        parentOf,
      )
    : [];
  const venues = [...new Set(e.data.venues)].filter((v) => !skip.has(linkId({ kind: 'VENUE', id: v })));
  return [
    allScope,
    ...(e.data.featured ? [featuredScope] : []),
    ...(isTicketed(e) ? [ticketedScope] : []),
    ...[...linked.values()].map(linkedScope),
    ...trees.map(treeScope),
    ...venues.flatMap((v) => trees.map((c) => venueTreeScope(v, c))),
  ];
}

export type Deltas = Map<string, { key: Key; adds: Map<string, number> }>;

/** Adds (sign 1) or removes (-1) an event from the month tallies and day sums of its scopes. */
export function addTallies(
  deltas: Deltas,
  e: EventRecord | undefined,
  sign: 1 | -1,
  skip: Set<string>,
  parentOf?: ReadonlyMap<number, number>,
): void {
  if (!e || !listable({ status: e.status, hidden: e.data.hideFromListings })) return;
  const startDay = dayKey(e.data.start);
  const endDay = dayKey(e.data.end);
  const mark = tallyMark(e.status);
  const attr = tallyAttr(mark, startDay, endDay);
  const month = tallyMonth(startDay);
  const add = (key: Key, attrs: string[]) => {
    const id = `${key.pk}|${key.sk}`;
    const entry = deltas.get(id) ?? { key, adds: new Map<string, number>() };
    for (const a of attrs) entry.adds.set(a, (entry.adds.get(a) ?? 0) + sign);
    deltas.set(id, entry);
  };
  const sums = [sumAttr(mark, startDay), ...(isLong(startDay, endDay) ? [attr] : [])];
  for (const scope of tallyScopes(e, skip, parentOf)) {
    add(keys.tally(scope, month), [attr]);
    add(keys.tallySums(scope, month), sums);
  }
}

const addItem = (key: Key, adds: Array<[string, number]>, condition?: string): WriteItem => {
  const names: Record<string, string> = {};
  const values: Record<string, number> = {};
  adds.forEach(([attr, n], i) => {
    names[`#a${i}`] = attr;
    values[`:d${i}`] = n;
  });
  return {
    Update: {
      TableName: tableName(),
      Key: key,
      UpdateExpression: `ADD ${adds.map((_, i) => `#a${i} :d${i}`).join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ...(condition ? { ConditionExpression: condition } : {}),
    },
  };
};

/** ADD deltas as writes; each one's undo is the same ADD negated (exact whatever happened since). */
export function deltaWrites(deltas: Deltas): PlannedWrite[] {
  const writes: PlannedWrite[] = [];
  for (const { key, adds } of deltas.values()) {
    const changed = [...adds].filter(([, n]) => n !== 0);
    if (changed.length === 0) continue;
    writes.push({
      item: addItem(key, changed),
      undo: addItem(
        key,
        changed.map(([a, n]) => [a, -n]),
      ),
    });
  }
  return writes;
}

const EXISTS = 'attribute_exists(pk)';
/** A new link needs a target that exists and is not being deleted (its delete is unlinking events). */
const LINKABLE = 'attribute_exists(pk) AND attribute_not_exists(deleting)';

export interface EventWriteOptions {
  /** Targets created in this same write (`KIND#id`): their counts start in their own item. */
  created?: Set<string>;
  /** Targets that are gone or being deleted (`KIND#id`): nothing of theirs is counted or tallied. */
  gone?: Set<string>;
  /** The error when a target disappears between the read and the write. */
  linkedGone: (field: LinkField) => Error;
  /**
   * The category taxonomy's parent map, read by the write: the subtree tallies (`TREE#<id>`) of every
   * ancestor-or-self of the event's categories. Required whenever the event has categories.
   */
  parentOf?: ReadonlyMap<number, number>;
  /**
   * Tally deltas shared by several events written in one transaction (a series' occurrences): added
   * to, and written once by the caller, since a transaction may name an item only once.
   */
  deltas?: Deltas;
}

function linkItem(e: EventRecord, l: EventLink) {
  return {
    ...keys.link(e.id, l.kind, l.id),
    ...keys.linkIndex(l.kind, l.id, e.data.start, e.id),
    type: 'link',
    kind: l.kind,
    eventId: e.id,
    targetId: l.id,
    row: rowOf(e),
  };
}

const put = (item: Record<string, unknown>): WriteItem => ({ Put: { TableName: tableName(), Item: item } });
const del = (key: Key): WriteItem => ({ Delete: { TableName: tableName(), Key: key } });

/**
 * Everything that must change with an event, in its own write: its link items (one per term, venue
 * and organizer, carrying the event's filter row), the linked records' counts, the month tallies and
 * the event's search words (only when a text changes).
 * `before` / `after` are the event's states; undefined means it does not exist. Only what changes is
 * written: a kept link is rewritten only when the event's filter row changes, a count only when the
 * event's weight changes.
 */
export function eventWrites(
  before: EventRecord | undefined,
  after: EventRecord | undefined,
  o: EventWriteOptions,
): PlannedWrite[] {
  const created = o.created ?? new Set<string>();
  const gone = o.gone ?? new Set<string>();
  const writes: PlannedWrite[] = [];
  const beforeLinks = new Map(linksOf(before).map((l) => [linkId(l), l]));
  const afterLinks = new Map(linksOf(after).map((l) => [linkId(l), l]));
  const rowChanged =
    !!before &&
    !!after &&
    (JSON.stringify(rowOf(before)) !== JSON.stringify(rowOf(after)) ||
      before.data.start !== after.data.start);
  const w0 = before ? linkWeight(before.status) : { p: 0, a: 0 };
  const w1 = after ? linkWeight(after.status) : { p: 0, a: 0 };

  for (const [id, l] of afterLinks) {
    const old = beforeLinks.get(id);
    const target = keys.linkTarget(l.kind, l.id);
    if (!old) {
      writes.push({ item: put(linkItem(after!, l)), undo: del(keys.link(after!.id, l.kind, l.id)) });
      if (created.has(id)) continue;
      const adds: Array<[string, number]> = [
        ['countPublic', w1.p],
        ['countAll', w1.a],
      ].filter(([, n]) => n !== 0) as Array<[string, number]>;
      writes.push(
        adds.length > 0
          ? {
              item: addItem(target, adds, LINKABLE),
              undo: addItem(
                target,
                adds.map(([a, n]) => [a, -n]),
              ),
              onConflict: () => o.linkedGone(l.field),
            }
          : {
              item: {
                ConditionCheck: { TableName: tableName(), Key: target, ConditionExpression: LINKABLE },
              },
              onConflict: () => o.linkedGone(l.field),
            },
      );
      continue;
    }
    if (rowChanged) {
      const previous = linkItem(before!, old);
      writes.push({ item: put(linkItem(after!, l)), undo: put(previous) });
    }
    if (gone.has(id)) continue;
    const adds = (
      [
        ['countPublic', w1.p - w0.p],
        ['countAll', w1.a - w0.a],
      ] as Array<[string, number]>
    ).filter(([, n]) => n !== 0);
    if (adds.length > 0)
      writes.push({
        item: addItem(target, adds, EXISTS),
        undo: addItem(
          target,
          adds.map(([a, n]) => [a, -n]),
        ),
        onConflict: () => o.linkedGone(l.field),
      });
  }
  for (const [id, l] of beforeLinks) {
    if (afterLinks.has(id)) continue;
    writes.push({ item: del(keys.link(before!.id, l.kind, l.id)), undo: put(linkItem(before!, l)) });
    if (gone.has(id)) continue;
    const adds = (
      [
        ['countPublic', -w0.p],
        ['countAll', -w0.a],
      ] as Array<[string, number]>
    ).filter(([, n]) => n !== 0);
    if (adds.length > 0)
      writes.push({
        item: addItem(keys.linkTarget(l.kind, l.id), adds, EXISTS),
        undo: addItem(
          keys.linkTarget(l.kind, l.id),
          adds.map(([a, n]) => [a, -n]),
        ),
        onConflict: () => o.linkedGone(l.field),
      });
  }
  writes.push(...memberWrites(before, after, rowChanged), ...ticketedWrites(before, after, rowChanged));
  const deltas: Deltas = o.deltas ?? new Map();
  addTallies(deltas, before, -1, gone, o.parentOf);
  addTallies(deltas, after, 1, gone, o.parentOf);
  return [...writes, ...wordWrites(before, after), ...(o.deltas ? [] : deltaWrites(deltas))];
}

function memberItem(e: EventRecord, seriesId: number) {
  return {
    ...keys.seriesMember(e.id, seriesId),
    ...keys.linkIndex('SERIES', seriesId, e.data.start, e.id),
    type: 'link',
    kind: 'SERIES',
    eventId: e.id,
    targetId: seriesId,
    row: rowOf(e),
  };
}

function ticketedItem(e: EventRecord) {
  return {
    ...keys.ticketedMember(e.id),
    ...keys.linkIndex('TICKETED', 0, e.data.start, e.id),
    type: 'link',
    kind: 'TICKETED',
    eventId: e.id,
    targetId: 0,
    row: rowOf(e),
  };
}

/**
 * An event's membership of the ticketed events (docs/tickets.md), kept like a link: there while the
 * event has a ticket, rewritten when its filter row changes, deleted with the event or its last
 * ticket. `ticketed=true` reads these rows (byAssignment `TICKETED#0`), counted by the TICKETED tallies.
 */
function ticketedWrites(
  before: EventRecord | undefined,
  after: EventRecord | undefined,
  rowChanged: boolean,
): PlannedWrite[] {
  const was = !!before && isTicketed(before);
  const is = !!after && isTicketed(after);
  if (is && (!was || rowChanged))
    return [
      {
        item: put(ticketedItem(after!)),
        undo: was ? put(ticketedItem(before!)) : del(keys.ticketedMember(after!.id)),
      },
    ];
  if (was && !is) return [{ item: del(keys.ticketedMember(before!.id)), undo: put(ticketedItem(before!)) }];
  return [];
}

/**
 * An occurrence's membership item (docs/recurrence.md), kept like a link: written with the event,
 * rewritten when its filter row changes, moved when it changes series, deleted with it.
 */
function memberWrites(
  before: EventRecord | undefined,
  after: EventRecord | undefined,
  rowChanged: boolean,
): PlannedWrite[] {
  const was = before?.data.series?.id;
  const is = after?.data.series?.id;
  const writes: PlannedWrite[] = [];
  if (is !== undefined && (was !== is || rowChanged))
    writes.push({
      item: put(memberItem(after!, is)),
      undo: was === is ? put(memberItem(before!, is)) : del(keys.seriesMember(after!.id, is)),
    });
  if (was !== undefined && was !== is)
    writes.push({ item: del(keys.seriesMember(before!.id, was)), undo: put(memberItem(before!, was)) });
  return writes;
}
