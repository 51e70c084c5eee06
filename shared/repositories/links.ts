import type { EventRow } from '../domain/event-record';
import { byStart } from '../domain/event-query';
import type { LinkKind, MemberKind } from '../domain/records';
import { patterns } from '../db/access-patterns';
import { keys } from '../db/keys';
import { batchGet, collect, itemKey, type PageSize, queryIndex } from '../db/query';
import { wallAt } from '../domain/wall-time';

/** IDs an event links to (terms, venues or organizers), in link order; a strongly consistent read. */
export async function linkedIds(eventId: number, kind: LinkKind): Promise<number[]> {
  const items = await collect(queryIndex(patterns.linksOfEvent.query(eventId, kind)));
  return items.map((i) => Number(i.targetId));
}

/**
 * Filter rows of the events linked to one term, venue or organizer whose event-local start lies in
 * [low, high], in start order (byAssignment index).
 */
export async function* eventsLinkedTo(
  kind: MemberKind,
  target: number,
  range: { low: string; high: string },
  pageSize?: PageSize,
): AsyncGenerator<EventRow> {
  for await (const item of queryIndex({ ...patterns.linkRowsOfTarget.query(kind, target, range), pageSize }))
    yield item.row as EventRow;
}

/**
 * Filter rows of the events linked to any of several targets, in list order (start, then ID), each event
 * once: a k-way merge of the targets' link streams, each read lazily in pages of `pageSize`, so a
 * consumer that stops after a page reads about one page per target, not every linked row.
 */
export async function* eventsLinkedToAny(
  kind: MemberKind,
  targets: number[],
  range: { low: string; high: string },
  pageSize?: PageSize,
): AsyncGenerator<EventRow> {
  const streams = targets.map((t) => eventsLinkedTo(kind, t, range, pageSize));
  try {
    // The first page of every stream together: one round trip.
    const heads = await Promise.all(streams.map((s) => s.next()));
    let last: number | undefined;
    for (;;) {
      let min = -1;
      heads.forEach((h, i) => {
        if (!h.done && (min < 0 || byStart(h.value, heads[min]!.value as EventRow) < 0)) min = i;
      });
      if (min < 0) return;
      const row = heads[min]!.value as EventRow;
      // The same event in two targets has the same index key in both: the copies come out together.
      if (row.eventId !== last) yield row;
      last = row.eventId;
      heads[min] = await streams[min]!.next();
    }
  } finally {
    await Promise.all(streams.map((s) => s.return(undefined)));
  }
}

/** Which of these links exist (`<eventId>|<KIND>#<id>`), in one batched read of their link items. */
export async function existingLinks(
  links: Array<{ eventId: number; kind: MemberKind; id: number }>,
): Promise<Set<string>> {
  const found = await batchGet(links.map((l) => keys.link(l.eventId, l.kind, l.id)));
  return new Set(
    links
      .filter((l) => found.has(itemKey(keys.link(l.eventId, l.kind, l.id))))
      .map((l) => `${l.eventId}|${l.kind}#${l.id}`),
  );
}

/** IDs of every event linked to one term, venue or organizer. */
export async function eventIdsLinkedTo(kind: MemberKind, target: number): Promise<number[]> {
  const items = await collect(queryIndex(patterns.eventIdsOfTarget.query(kind, target)));
  return items.map((i) => Number(i.eventId));
}

/**
 * Venue or organizer IDs linked to events that have not ended yet (running events count) and whose
 * status passes `visible`. The end index holds event-local wall times, so it is read from 14 hours
 * before now (the largest UTC offset) and the UTC end decides.
 */
export async function upcomingLinkedIds(
  kind: 'VENUE' | 'ORGANIZER',
  now: Date,
  visible: (event: { status: string; author: string }) => boolean,
): Promise<Set<number>> {
  const field = kind === 'VENUE' ? 'venues' : 'organizers';
  const wallUtc = (d: Date) => wallAt(d.getTime());
  const nowUtc = wallUtc(now);
  const ids = new Set<number>();
  for await (const item of queryIndex(
    patterns.eventsEndingAfter.query(wallUtc(new Date(now.getTime() - 14 * 3600_000)), field),
  )) {
    const data = item.data as { utcEnd?: string } & Record<string, number[]>;
    if (!data?.utcEnd || data.utcEnd < nowUtc || item.status === 'trash') continue;
    if (!visible(item as { status: string; author: string })) continue;
    for (const id of data[field] ?? []) ids.add(Number(id));
  }
  return ids;
}
