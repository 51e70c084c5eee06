import { patterns } from '../db/access-patterns';
import { tableName } from '../db/client';
import { keys } from '../db/keys';
import { batchGet, collect, type Item, queryIndex } from '../db/query';
import type { PlannedWrite } from '../db/transact';
import type { ChangeState } from '../domain/changes';
import { DomainError } from '../domain/errors';
import { changeWrite } from './changes';
import { MAIL_KINDS } from './ticket-mail';
import { getTicket, listTickets } from './tickets';

/**
 * What a permanent delete of an event does to its tickets (docs/tickets.md, "Deleting an event"): the
 * writes that remove every ticket, attendee and attendee's mail of the event, planned for the event's
 * own delete (repositories/posts.ts deletePost, committed by commitAll):
 *
 * - each attendee and mail item goes in the steps before the event's last transaction (up to 100
 *   items each), each under the state it was read in and with its undo (the item put back), so a
 *   delete that fails further on leaves them as they were;
 * - each ticket goes in the last transaction, with the event, under the condition that nobody
 *   registered since it was read (`registrations`, which counts every registration ever made): a
 *   registration racing the delete makes the whole delete fail, undone, and the service tries again
 *   with the attendees read anew. So no attendee outlives its event.
 *
 * A ticket's removal is logged (`ticket.removed`); its attendees' one by one are not (they would not
 * fit the last transaction): a subscriber that sees them learns of their ticket's removal.
 */

/** Tickets of one event its permanent delete removes with it (two items each in the last transaction). */
export const MAX_TICKETS_PER_EVENT_DELETE = 40;

export interface TicketRemoval {
  writes: PlannedWrite[];
  /** Attendees removed that were registered (going, not going or waiting; cancelled ones go too). */
  attendees: number;
  tickets: number;
}

export async function ticketRemoval(
  eventId: number,
  state: ChangeState,
  changed: () => Error,
): Promise<TicketRemoval> {
  const ids = (await listTickets()).filter((t) => t.post_id === eventId).map((t) => t.id);
  // No ticket, no attendee: a ticket with registrations can neither be deleted nor moved.
  if (ids.length === 0) return { writes: [], attendees: 0, tickets: 0 };
  if (ids.length > MAX_TICKETS_PER_EVENT_DELETE)
    throw new DomainError(
      'conflict',
      'rest_too_many_tickets',
      `The event has ${ids.length} tickets; a permanent delete takes at most ${MAX_TICKETS_PER_EVENT_DELETE} with it: delete some of them first.`,
    );
  // The counters read consistently, the attendees from an index: while the index lags behind the
  // counters (an attendee just written), the delete waits for it (the service tries again).
  const tickets = (await Promise.all(ids.map((id) => getTicket(id)))).filter((t) => t !== undefined);
  const attendees = await collect(queryIndex(patterns.attendeesOfEvent.query(eventId)));
  for (const t of tickets)
    if (attendees.filter((a) => Number(a.ticket_id) === t.id).length !== t.registrations) throw changed();
  const mails = await batchGet(
    attendees.flatMap((a) => MAIL_KINDS.map((kind) => keys.mail(Number(a.id), kind))),
    true,
  );
  const writes: PlannedWrite[] = [
    ...attendees.map((a) => removal(a, changed)),
    ...[...mails.values()].map((m) => removal(m)),
  ];
  for (const t of tickets)
    writes.push(
      {
        item: {
          Delete: {
            TableName: tableName(),
            Key: keys.ticket(t.id),
            ConditionExpression: 'registrations = :n',
            ExpressionAttributeValues: { ':n': t.registrations },
          },
        },
        onConflict: changed,
        final: true,
      },
      changeWrite({ resource: 'tickets', id: t.id, before: state, after: undefined }),
    );
  return {
    writes,
    attendees: attendees.filter((a) => a.status !== 'cancelled').length,
    tickets: tickets.length,
  };
}

/**
 * An item's delete under the state it was read in (an attendee: its status and check-in, which a
 * cancellation or check-in changes), with its undo: the item put back as it was.
 */
function removal(item: Item, changed?: () => Error): PlannedWrite {
  const Key = { pk: String(item.pk), sk: String(item.sk) };
  const guarded = item.type === 'attendee';
  return {
    item: {
      Delete: {
        TableName: tableName(),
        Key,
        ...(guarded
          ? {
              ConditionExpression: '#s = :s AND checked_in = :c',
              ExpressionAttributeNames: { '#s': 'status' },
              ExpressionAttributeValues: { ':s': item.status, ':c': item.checked_in },
            }
          : {}),
      },
    },
    ...(guarded && changed ? { onConflict: changed } : {}),
    undo: { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
  };
}
