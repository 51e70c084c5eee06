import { countsForEditors, countsPublic, type EventRecord, listable, rowOf } from '../domain/event-record';
import type { LinkKind } from '../domain/records';
import { dayKey, tallyAttr } from '../domain/tallies';
import { tableName } from '../db/client';
import { keys } from '../db/keys';
import type { Write } from '../db/transact';

function linksOf(e: EventRecord | undefined): Array<[LinkKind, number]> {
  if (!e) return [];
  return [
    ...[...e.data.categories, ...e.data.tags].map((id) => ['TERM', id] as [LinkKind, number]),
    ...e.data.venues.map((id) => ['VENUE', id] as [LinkKind, number]),
    ...e.data.organizers.map((id) => ['ORGANIZER', id] as [LinkKind, number]),
  ];
}

function tallyScopes(e: EventRecord): string[] {
  return ['ALL', ...(e.data.featured ? ['FEATURED'] : []), ...linksOf(e).map(([k, id]) => `${k}#${id}`)];
}

export type Deltas = Map<string, { key: { pk: string; sk: string }; adds: Map<string, number> }>;

export function addTallies(deltas: Deltas, e: EventRecord | undefined, sign: 1 | -1, only?: string): void {
  if (!e || !listable({ status: e.status, hidden: e.data.hideFromListings })) return;
  const startDay = dayKey(e.data.start);
  const endDay = dayKey(e.data.end);
  const who: Array<'p' | 'a'> = e.status === 'publish' ? ['p', 'a'] : ['a'];
  for (const scope of tallyScopes(e)) {
    if (only !== undefined && scope !== only) continue;
    const key = keys.tally(scope, startDay);
    const id = `${key.pk}|${key.sk}`;
    const entry = deltas.get(id) ?? { key, adds: new Map<string, number>() };
    for (const w of who) {
      const attr = tallyAttr(w, endDay);
      entry.adds.set(attr, (entry.adds.get(attr) ?? 0) + sign);
    }
    deltas.set(id, entry);
  }
}

function tallyWrites(before: EventRecord | undefined, after: EventRecord | undefined): Write[] {
  const deltas: Deltas = new Map();
  addTallies(deltas, before, -1);
  addTallies(deltas, after, 1);
  return deltaWrites(deltas);
}

export function deltaWrites(deltas: Deltas): Write[] {
  const writes: Write[] = [];
  for (const { key, adds } of deltas.values()) {
    const changed = [...adds].filter(([, n]) => n !== 0);
    if (changed.length === 0) continue;
    const names: Record<string, string> = {};
    const values: Record<string, number> = {};
    changed.forEach(([attr, n], i) => {
      names[`#a${i}`] = attr;
      values[`:d${i}`] = n;
    });
    writes.push({
      item: {
        Update: {
          TableName: tableName(),
          Key: key,
          UpdateExpression: `ADD ${changed.map((_, i) => `#a${i} :d${i}`).join(', ')}`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        },
      },
    });
  }
  return writes;
}

/** Adjusts a linked record's counts; the condition doubles as the check that it still exists. */
const countUpdate = (
  kind: LinkKind,
  target: number,
  p: number,
  a: number,
  linkedGone: () => Error,
): Write => ({
  item: {
    Update: {
      TableName: tableName(),
      Key: keys.linkTarget(kind, target),
      UpdateExpression: 'ADD countPublic :p, countAll :a',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':p': p, ':a': a },
    },
  },
  onConflict: linkedGone,
});

/**
 * Everything that must change with an event, in its own transaction: its link items (one per term,
 * venue and organizer, carrying the event's filter row), the linked records' counts and the list
 * tallies. `before` / `after` are the event's states; undefined means it does not exist.
 * `existing` names the linked records that still exist (counts of vanished ones are not touched).
 */
export function eventWrites(
  before: EventRecord | undefined,
  after: EventRecord | undefined,
  linkedGone: () => Error,
): Write[] {
  const writes: Write[] = [];
  const beforeLinks = new Set(linksOf(before).map(([k, id]) => `${k}#${id}`));
  const afterLinks = new Map(linksOf(after).map(([k, id]) => [`${k}#${id}`, [k, id] as [LinkKind, number]]));
  const weight = (e: EventRecord | undefined, linked: boolean) => ({
    p: e && linked && countsPublic(e.status) ? 1 : 0,
    a: e && linked && countsForEditors(e.status) ? 1 : 0,
  });
  for (const [id, [kind, target]] of afterLinks) {
    writes.push({
      item: {
        Put: {
          TableName: tableName(),
          Item: {
            ...keys.link(after!.id, kind, target),
            ...keys.linkIndex(kind, target, after!.data.start, after!.id),
            type: 'link',
            kind,
            eventId: after!.id,
            targetId: target,
            row: rowOf(after!),
          },
        },
      },
    });
    const b = weight(before, beforeLinks.has(id));
    const a = weight(after, true);
    writes.push(countUpdate(kind, target, a.p - b.p, a.a - b.a, linkedGone));
  }
  for (const [kind, target] of linksOf(before)) {
    if (afterLinks.has(`${kind}#${target}`)) continue;
    writes.push({ item: { Delete: { TableName: tableName(), Key: keys.link(before!.id, kind, target) } } });
    const b = weight(before, true);
    if (b.p === 0 && b.a === 0) continue;
    writes.push(countUpdate(kind, target, -b.p, -b.a, linkedGone));
  }
  return [...writes, ...tallyWrites(before, after)];
}
