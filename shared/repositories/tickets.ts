import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { patterns } from '../db/access-patterns';
import { ddb, tableName } from '../db/client';
import { keys } from '../db/keys';
import { collect, queryIndex } from '../db/query';
import { attendeeState, type ChangeState } from '../domain/changes';
import type { AttendeeRecord, TicketRecord } from '../domain/tickets';
import { changeWrite } from './changes';
import type { RateCount } from '../domain/rate-limits';
import { rateCountWrite } from './rate-limits';
import { mailPut } from './ticket-mail';
import { ticketCountWrites } from './ticketed-events';

/**
 * Tickets and attendees (docs/tickets.md). A ticket's item carries its seat counters; a registration
 * writes the attendee and moves the counter in one transaction whose condition on the counter is the
 * capacity, so no seat is ever given twice however many registrations race (the condition is checked
 * by DynamoDB at the write, not read before it).
 */

const strip = <T>({ pk: _pk, sk: _sk, type: _t, ...rest }: Record<string, unknown>): T => {
  for (const k of Object.keys(rest)) if (k.startsWith('gsi')) delete rest[k];
  return rest as T;
};

/**
 * Puts a new ticket with its change-log entry (`state`: its event's, docs/tickets.md) and its event's
 * ticket count (ticketed-events.ts); false when the event is gone.
 */
export async function putTicket(t: TicketRecord, state: ChangeState): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    const counted = await ticketCountWrites([{ eventId: t.post_id, by: 1 }]);
    if (counted.missing.length > 0) return false;
    const failed = await transact([
      {
        Put: {
          TableName: tableName(),
          Item: { ...keys.ticket(t.id), ...keys.ticketIndex(t.id), type: 'ticket', ...t },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      ticketChange(t.id, undefined, state),
      ...counted.items,
    ]);
    if (failed < 0) return true;
    if (!eventRaced(failed, 2, counted.guarded, attempt))
      throw new Error(`ticket ${t.id} could not be written (item ${failed} of its transaction refused)`);
  }
}

/** Races with an event's writes lost before the ticket write gives up (each reads the event again). */
const EVENT_RACES = 20;

/** Whether item `failed` is one of the events' version-conditioned updates (from `first`): read again and retry. */
const eventRaced = (failed: number, first: number, guarded: number, attempt: number) =>
  failed >= first && failed < first + guarded && attempt < EVENT_RACES;

const ticketChange = (id: number, before: ChangeState | undefined, after: ChangeState | undefined) =>
  changeWrite({ resource: 'tickets', id, before, after }).item;

const attendeeChange = (a: AttendeeRecord, eventAuthor: string, was?: 'new', cancelled = false) =>
  changeWrite({
    resource: 'attendees',
    id: a.id,
    before: was === 'new' ? undefined : attendeeState(eventAuthor),
    after: attendeeState(eventAuthor, cancelled),
  }).item;

export async function getTicket(id: number): Promise<TicketRecord | undefined> {
  const out = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: keys.ticket(id), ConsistentRead: true }),
  );
  return out.Item && strip<TicketRecord>(out.Item);
}

/** Every ticket in ID order: one Query of the tickets' index partition (paged only past 1 MB). */
export async function listTickets(): Promise<TicketRecord[]> {
  return (await collect(queryIndex(patterns.allTickets.query()))).map((i) => strip<TicketRecord>(i));
}

/**
 * Sets fields of a ticket; undefined when it is gone or `minCapacity` is not met (a capacity below the
 * seats taken, checked at the write so that a registration racing the change cannot slip past it).
 * A ticket moved to another event (`unregistered`: it must have no attendees) moves one from the old
 * event's ticket count to the new one's (ticketed-events.ts), in the same transaction.
 */
export async function updateTicket(
  id: number,
  set: Partial<TicketRecord>,
  capacity?: number,
  unregistered = false,
  state?: ChangeState,
): Promise<TicketRecord | undefined> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = Object.entries(set).map(([k, v], i) => {
    names[`#s${i}`] = k;
    values[`:s${i}`] = v;
    return `#s${i} = :s${i}`;
  });
  let condition = 'attribute_exists(pk)';
  if (capacity !== undefined && capacity >= 0) {
    condition += ' AND sold <= :cap';
    values[':cap'] = capacity;
  }
  // A ticket moved to another event must have no attendees: theirs name the event they registered for.
  if (unregistered) {
    condition += ' AND registrations = :none';
    values[':none'] = 0;
  }
  for (let attempt = 0; ; attempt++) {
    // The event it leaves is the one it names at the write (the condition holds it there).
    const from = set.post_id !== undefined ? (await getTicket(id))?.post_id : undefined;
    const moving = from !== undefined && from !== set.post_id;
    const counted = moving
      ? await ticketCountWrites([
          { eventId: from, by: -1 },
          { eventId: set.post_id!, by: 1 },
        ])
      : undefined;
    const where = moving ? { ...values, ':from': from } : values;
    // With its change-log entry, in one transaction (no ALL_NEW there: read back after).
    const items: TransactItems = [
      {
        Update: {
          TableName: tableName(),
          Key: keys.ticket(id),
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: moving ? `${condition} AND post_id = :from` : condition,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: where,
        },
      },
      ...(state ? [ticketChange(id, state, state)] : []),
    ];
    const failed = await transact([...items, ...(counted?.items ?? [])]);
    if (failed < 0) return getTicket(id);
    if (!eventRaced(failed, items.length, counted?.guarded ?? 0, attempt)) return undefined;
  }
}

/**
 * Deletes a ticket nobody registered for, and takes it from its event's ticket count in the same
 * transaction; false when it has attendees (or is gone).
 */
export async function deleteTicket(id: number, state?: ChangeState): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    const ticket = await getTicket(id);
    if (!ticket) return false;
    const counted = await ticketCountWrites([{ eventId: ticket.post_id, by: -1 }]);
    const items: TransactItems = [
      {
        Delete: {
          TableName: tableName(),
          Key: keys.ticket(id),
          ConditionExpression: 'attribute_exists(pk) AND registrations = :zero AND post_id = :event',
          ExpressionAttributeValues: { ':zero': 0, ':event': ticket.post_id },
        },
      },
      ...(state ? [ticketChange(id, state, undefined)] : []),
    ];
    const failed = await transact([...items, ...counted.items]);
    if (failed < 0) return true;
    if (eventRaced(failed, items.length, counted.guarded, attempt)) continue;
    // Moved to another event meanwhile (the count to move is that event's): read it again.
    const now = failed === 0 ? await getTicket(id) : undefined;
    if (!now || now.registrations > 0 || now.post_id === ticket.post_id || attempt >= EVENT_RACES)
      return false;
  }
}

export async function getAttendee(id: number): Promise<AttendeeRecord | undefined> {
  const out = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: keys.attendee(id), ConsistentRead: true }),
  );
  return out.Item && strip<AttendeeRecord>(out.Item);
}

export async function listAttendees(by: { ticketId?: number; eventId?: number }): Promise<AttendeeRecord[]> {
  const query =
    by.ticketId !== undefined
      ? patterns.attendeesOfTicket.query(by.ticketId)
      : by.eventId !== undefined
        ? patterns.attendeesOfEvent.query(by.eventId)
        : patterns.allAttendees.query();
  return (await collect(queryIndex(query))).map((i) => strip<AttendeeRecord>(i));
}

type TransactItems = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>;

/**
 * Runs a transaction, again after a random pause while it loses races with concurrent ones on the
 * same ticket (TransactionConflict); the index of the item whose condition failed, or -1 on success.
 */
async function transact(items: TransactItems): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    try {
      await ddb.send(new TransactWriteCommand({ TransactItems: items }));
      return -1;
    } catch (e) {
      if (
        !(e instanceof TransactionCanceledException) &&
        (e as { name?: string }).name !== 'TransactionCanceledException'
      )
        throw e;
      const reasons = (e as TransactionCanceledException).CancellationReasons ?? [];
      const failed = reasons.findIndex((r) => r?.Code === 'ConditionalCheckFailed');
      if (failed >= 0) return failed;
      if (!reasons.some((r) => r?.Code === 'TransactionConflict') || attempt >= 40) throw e;
      await new Promise((r) => setTimeout(r, Math.random() * Math.min(200, 10 * 2 ** Math.min(attempt, 5))));
    }
  }
}

const ticketCounter = (
  ticketId: number,
  expression: string,
  condition: string,
  values: Record<string, unknown>,
  names?: Record<string, string>,
) => ({
  Update: {
    TableName: tableName(),
    Key: keys.ticket(ticketId),
    UpdateExpression: expression,
    ConditionExpression: condition,
    ExpressionAttributeValues: values,
    ...(names ? { ExpressionAttributeNames: names } : {}),
  },
});

const attendeePut = (a: AttendeeRecord) => ({
  Put: {
    TableName: tableName(),
    Item: {
      ...keys.attendee(a.id),
      ...keys.attendeeIndex(a.id, a.ticket_id, a.post_id),
      type: 'attendee',
      ...a,
    },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

/** What a registration came to; `limited`: the rate count at that index was at its limit. */
export type RegisterOutcome = 'ok' | 'waitlisted' | 'sold_out' | 'gone' | { limited: number };

/**
 * Writes a registration: `going` takes a seat only while `sold < capacity` (or the capacity is
 * unlimited, -1), in the same transaction as the attendee. With `waitlist`, a full ticket puts the
 * attendee on its waitlist instead, under the condition that it is still full: if a seat was freed in
 * between, the seat is tried again. 'sold_out' when no seat was left, 'gone' when the ticket is no more.
 * `counts` (an anonymous registration's rate limits) are counted in the same transaction: a count at
 * its limit refuses the registration, and a refused registration counts nothing. `linkToken`: the
 * attendee's secret, which the confirmation mail's item keeps until it is sent (docs/tickets.md).
 */
export async function register(
  a: AttendeeRecord,
  eventAuthor: string,
  waitlist = false,
  counts: RateCount[] = [],
  linkToken?: string,
): Promise<RegisterOutcome> {
  const limits = counts.map((c) => rateCountWrite('REG', c));
  for (let attempt = 0; attempt < 10; attempt++) {
    const seat = await takeSeat(a, eventAuthor, limits, linkToken);
    if (seat !== 'sold_out' || !waitlist || a.status !== 'going') return seat;
    const failed = await transact([
      ticketCounter(
        a.ticket_id,
        'ADD waitlisted :one, registrations :one',
        'attribute_exists(pk) AND #cap >= :zero AND sold >= #cap',
        { ':one': 1, ':zero': 0 },
        { '#cap': 'capacity' },
      ),
      attendeePut({ ...a, status: 'waitlist' }),
      mailPut(a.id, 'confirmation', undefined, linkToken),
      attendeeChange(a, eventAuthor, 'new'),
      ...limits,
    ]);
    if (failed < 0) return 'waitlisted';
    if (failed >= REGISTRATION_ITEMS) return { limited: failed - REGISTRATION_ITEMS };
    if (!(await getTicket(a.ticket_id))) return 'gone';
  }
  return 'sold_out';
}

/** The items of a registration's transaction before its rate counts. */
const REGISTRATION_ITEMS = 4;

async function takeSeat(
  a: AttendeeRecord,
  eventAuthor: string,
  limits: TransactItems,
  linkToken?: string,
): Promise<Exclude<RegisterOutcome, 'waitlisted'>> {
  const counter =
    a.status === 'going'
      ? ticketCounter(
          a.ticket_id,
          'ADD sold :one, registrations :one',
          // `capacity` is a reserved word of DynamoDB's expressions.
          'attribute_exists(pk) AND (#cap < :zero OR sold < #cap)',
          { ':one': 1, ':zero': 0 },
          { '#cap': 'capacity' },
        )
      : ticketCounter(a.ticket_id, 'ADD not_going :one, registrations :one', 'attribute_exists(pk)', {
          ':one': 1,
        });
  const failed = await transact([
    counter,
    attendeePut(a),
    mailPut(a.id, 'confirmation', undefined, linkToken),
    attendeeChange(a, eventAuthor, 'new'),
    ...limits,
  ]);
  if (failed < 0) return 'ok';
  if (failed >= REGISTRATION_ITEMS) return { limited: failed - REGISTRATION_ITEMS };
  return (await getTicket(a.ticket_id)) ? 'sold_out' : 'gone';
}

/**
 * What a cancellation found: `ok` done; `stale` the attendee changed since it was read (cancelled by
 * another request, checked in); `waiting` a seat would be freed while someone waits for it (promote
 * them); `promotee` the one to promote is no longer waiting.
 */
export type CancelOutcome = 'ok' | 'stale' | 'waiting' | 'promotee';

/**
 * Cancels a registration and gives back what it took exactly once: the attendee's status must still
 * be the one read, so of two racing cancellations only one counts. A freed seat goes to `promote` (the
 * first on the waitlist) in the same transaction, so it is never free while someone waits; without
 * one, the seat is freed only while nobody waits (the waitlist's count is the condition).
 */
export async function cancel(
  a: AttendeeRecord,
  stamps: { modified: string; modified_utc: string },
  eventAuthor: string,
  promote?: AttendeeRecord,
): Promise<CancelOutcome> {
  const checkedIn = a.checked_in ? ', checked_in :minus' : '';
  const ticket =
    a.status === 'going' && promote
      ? ticketCounter(a.ticket_id, `ADD waitlisted :minus${checkedIn}`, 'attribute_exists(pk)', {
          ':minus': -1,
        })
      : a.status === 'going'
        ? ticketCounter(
            a.ticket_id,
            `ADD sold :minus${checkedIn}`,
            'attribute_exists(pk) AND (attribute_not_exists(waitlisted) OR waitlisted <= :zero)',
            { ':minus': -1, ':zero': 0 },
          )
        : ticketCounter(
            a.ticket_id,
            `ADD ${a.status === 'waitlist' ? 'waitlisted' : 'not_going'} :minus`,
            'attribute_exists(pk)',
            { ':minus': -1 },
          );
  const items: TransactItems = [
    {
      Update: {
        TableName: tableName(),
        Key: keys.attendee(a.id),
        UpdateExpression: 'SET #s = :cancelled, modified = :m, modified_utc = :mu',
        ConditionExpression: '#s = :was AND checked_in = :checked',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: {
          ':cancelled': 'cancelled',
          ':was': a.status,
          ':checked': a.checked_in,
          ':m': stamps.modified,
          ':mu': stamps.modified_utc,
        },
      },
    },
    ticket,
  ];
  if (a.status === 'going' && promote)
    items.push({
      Update: {
        TableName: tableName(),
        Key: keys.attendee(promote.id),
        UpdateExpression: 'SET #s = :going, modified = :m, modified_utc = :mu',
        ConditionExpression: '#s = :waiting',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: {
          ':going': 'going',
          ':waiting': 'waitlist',
          ':m': stamps.modified,
          ':mu': stamps.modified_utc,
        },
      },
    });
  // The promoted attendee is told (docs/tickets.md): the mail commits with the promotion or not at all.
  if (a.status === 'going' && promote)
    items.push(mailPut(promote.id, 'promoted'), attendeeChange(promote, eventAuthor));
  items.push(attendeeChange(a, eventAuthor, undefined, true));
  const failed = await transact(items);
  return (['ok', 'stale', 'waiting', 'promotee'] as const)[failed + 1]!;
}

/** Checks an attendee in (or undoes it) and moves the ticket's check-in count with it, exactly once. */
export async function setCheckIn(
  a: AttendeeRecord,
  checkedIn: boolean,
  stamps: { modified: string; modified_utc: string },
  eventAuthor: string,
): Promise<boolean> {
  const failed = await transact([
    {
      Update: {
        TableName: tableName(),
        Key: keys.attendee(a.id),
        UpdateExpression: 'SET checked_in = :to, checkin_utc = :at, modified = :m, modified_utc = :mu',
        ConditionExpression: '#s = :going AND checked_in = :from',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: {
          ':to': checkedIn,
          ':from': !checkedIn,
          ':going': 'going',
          ':at': checkedIn ? stamps.modified_utc : null,
          ':m': stamps.modified,
          ':mu': stamps.modified_utc,
        },
      },
    },
    ticketCounter(a.ticket_id, 'ADD checked_in :d', 'attribute_exists(pk)', { ':d': checkedIn ? 1 : -1 }),
    attendeeChange(a, eventAuthor),
  ]);
  return failed < 0;
}

/**
 * Gives a free seat to one waiting attendee (a capacity raised): the seat is taken under the same
 * condition as a registration's, and the attendee must still be waiting. false when no seat is free
 * or they stopped waiting.
 */
export async function promote(
  p: AttendeeRecord,
  stamps: { modified: string; modified_utc: string },
  eventAuthor: string,
): Promise<boolean> {
  const failed = await transact([
    ticketCounter(
      p.ticket_id,
      'ADD sold :one, waitlisted :minus',
      'attribute_exists(pk) AND (#cap < :zero OR sold < #cap) AND waitlisted > :zero',
      { ':one': 1, ':minus': -1, ':zero': 0 },
      { '#cap': 'capacity' },
    ),
    {
      Update: {
        TableName: tableName(),
        Key: keys.attendee(p.id),
        UpdateExpression: 'SET #s = :going, modified = :m, modified_utc = :mu',
        ConditionExpression: '#s = :waiting',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: {
          ':going': 'going',
          ':waiting': 'waitlist',
          ':m': stamps.modified,
          ':mu': stamps.modified_utc,
        },
      },
    },
    mailPut(p.id, 'promoted'),
    attendeeChange(p, eventAuthor),
  ]);
  return failed < 0;
}
