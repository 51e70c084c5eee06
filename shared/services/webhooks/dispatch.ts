import { config, NAMESPACE_PATH, TICKETS_NAMESPACE } from '../../config';
import {
  type ChangeEntry,
  type ChangeResource,
  changeRestUrl,
  namespaceRoot,
  positionAt,
  timeOfPosition,
} from '../../domain/changes';
import {
  actionForVisibility,
  eventType,
  matchesType,
  PING_TYPE,
  readerOf,
  type Visibility,
} from '../../domain/webhooks';
import { changesAfter, nextPosition } from '../../repositories/changes';
import { createDelivery, type DeliveryRecord, laneHead } from '../../repositories/webhook-deliveries';
import { listWebhooks, type WebhookRecord } from '../../repositories/webhooks';
import type { Caller } from '../common';
import { getEvent } from '../events';
import { linkedPostReads } from '../linked';
import { organizerView } from '../linked';
import { termReads } from '../terms';
import { getAttendee, getTicket } from '../tickets';
import { venueView } from '../linked';

/**
 * The dispatcher: turns change-log entries, in the order the table's stream gives them, into one
 * delivery per subscription that wants them (type and visibility), each with its job and its place in
 * its record's lane. The same code runs on DynamoDB Local's stream (local/webhooks.ts) and behind the
 * deployed stream's event source mapping (functions/webhook-engine/dispatch.ts).
 */

/** A change-log entry and its place in the stream (the sequence number, zero-padded). */
export interface StreamedChange {
  entry: ChangeEntry;
  order: string;
}

/** Stream sequence numbers are decimal strings of up to 40 digits: padded, text order is their order. */
export const streamOrder = (sequenceNumber: string) => sequenceNumber.padStart(40, '0');

/** The API root that payloads' rest_url are built from (no request to read it from here). */
export const apiRoot = () => `${config.apiBaseUrl ?? config.siteUrl}${NAMESPACE_PATH}`;

/** A delivery's ID and webhook-id: the change's position, compacted (unique within a subscription). */
export const deliveryIdOf = (position: string) => `msg_${position.replace(/[-:.]/g, '').replace(/#/g, '_')}`;

const utc = (ms: number) => new Date(ms).toISOString();

/** A delivery made behind another of its record looks by itself this much later, if no hand-over came. */
const LANE_WAIT_MS = 5_000;

const venues = linkedPostReads(venueView);
const organizers = linkedPostReads(organizerView);
const categories = termReads('tribe_events_cat');
const tags = termReads('post_tag');

/** The record as a reader of this visibility reads it now; null when that reader may not (any more). */
async function recordAs(resource: ChangeResource, id: number, visibility: Visibility): Promise<unknown> {
  const ctx: Caller = { user: readerOf(visibility), root: apiRoot() };
  try {
    switch (resource) {
      case 'events':
        return await getEvent({ id }, ctx);
      case 'venues':
        return await venues.get({ id }, ctx);
      case 'organizers':
        return await organizers.get({ id }, ctx);
      case 'categories':
        return await categories.get(id, ctx);
      case 'tags':
        return await tags.get(id, ctx);
      // As the reader sees them: a public subscription's ticket has no attendees, and attendees (with
      // their e-mail addresses) reach only those who may manage them (docs/tickets.md).
      case 'tickets':
        return await getTicket(id, { ...ctx, root: namespaceRoot(ctx.root, TICKETS_NAMESPACE) });
      case 'attendees':
        return await getAttendee(id, { ...ctx, root: namespaceRoot(ctx.root, TICKETS_NAMESPACE) });
    }
  } catch {
    return null;
  }
}

interface Message {
  type: string;
  body: string;
}

/** What a subscription of this visibility is told of the entry, or nothing. */
async function messageFor(entry: ChangeEntry, visibility: Visibility): Promise<Message | undefined> {
  const action = actionForVisibility(entry, visibility);
  if (!action) return undefined;
  const type = eventType(entry.resource, action);
  const record = action === 'removed' ? null : await recordAs(entry.resource, entry.id, visibility);
  const body = JSON.stringify({
    type,
    timestamp: utc(timeOfPosition(entry.position)),
    data: {
      resource: entry.resource,
      id: entry.id,
      action,
      modified_utc: entry.modified_utc,
      rest_url: changeRestUrl(entry.resource, entry.id, apiRoot()),
      record,
    },
  });
  return { type, body };
}

/**
 * Makes the deliveries of a run of changes, in order; returns how many it made. Running it again on
 * the same changes makes nothing twice (a delivery's ID is its change's position).
 */
export async function dispatchChanges(changes: StreamedChange[], now = Date.now()): Promise<number> {
  return (await dispatchChangesUntil(changes, () => false, now)).made;
}

/**
 * dispatchChanges that stops before a change (never the first) once `timeIsUp` says so: `dispatched`
 * is how many changes, from the first, had their deliveries made (all of them when it did not stop).
 */
export async function dispatchChangesUntil(
  changes: StreamedChange[],
  timeIsUp: () => boolean,
  now = Date.now(),
): Promise<{ made: number; dispatched: number }> {
  if (changes.length === 0) return { made: 0, dispatched: 0 };
  const subscribers = (await listWebhooks()).filter((w) => w.active);
  if (subscribers.length === 0) return { made: 0, dispatched: changes.length };
  let made = 0;
  for (const [i, { entry, order }] of changes.entries()) {
    if (i > 0 && timeIsUp()) return { made, dispatched: i };
    const messages = new Map<Visibility, Promise<Message | undefined>>();
    const at = timeOfPosition(entry.position);
    for (const w of subscribers) {
      // A subscription is told of the changes made after it was made (the stream may still hold older ones).
      if (at < Date.parse(w.created_utc)) continue;
      if (!messages.has(w.visibility)) messages.set(w.visibility, messageFor(entry, w.visibility));
      const message = await messages.get(w.visibility)!;
      if (!message || !matchesType(w.events, message.type)) continue;
      const delivery: DeliveryRecord = {
        webhook: w.id,
        id: deliveryIdOf(entry.position),
        event_type: message.type,
        resource: entry.resource,
        record_id: entry.id,
        body: message.body,
        status: 'pending',
        created_utc: utc(now),
        attempts: [],
        attempt_count: 0,
        next_attempt_ms: now,
        lane: `${entry.resource}#${entry.id}`,
        order,
      };
      // Behind another pending delivery of its record it waits for the hand-over; its own job is only a
      // safety net then (shared/services/webhooks/engine/delivery.ts).
      const waiting = (await laneHead(w.id, delivery.lane!, 1)).length > 0;
      if (await createDelivery(delivery, waiting ? now + LANE_WAIT_MS : now)) made++;
    }
  }
  return { made, dispatched: changes.length };
}

/** Change-log entries read per Query while catching up. */
const CATCH_UP_PAGE = 100;

/**
 * Dispatches the change log from a stream checkpoint on: what the stream never gave the dispatcher
 * (a stream turned on after the table had changes, records past the stream's 24 hours). Run when the dispatcher
 * starts, before it reads the stream. It reads from a little before the newest position dispatched
 * (a slower writer may commit an older position for the settle delay), or, with none, from the oldest
 * subscription's creation; what was dispatched already is made nothing of again. The deliveries rank in
 * their lanes after every change the stream gave up to `sequence`, before every later one, and among
 * themselves in log order. Returns how many deliveries it made.
 */
export async function catchUpChanges(from: { sequence: string; position?: string }): Promise<number> {
  const subscribers = (await listWebhooks()).filter((w) => w.active);
  if (subscribers.length === 0) return 0;
  const oldest = Math.min(...subscribers.map((w) => Date.parse(w.created_utc)));
  const settled = from.position ? timeOfPosition(from.position) - config.changesSettleSeconds * 1000 : oldest;
  let after = positionAt(Math.max(oldest, settled) - 1);
  let made = 0;
  for (;;) {
    const { entries, more } = await changesAfter(after, CATCH_UP_PAGE);
    const rank = streamOrder(from.sequence);
    made += await dispatchChanges(entries.map((entry) => ({ entry, order: `${rank}#${entry.position}` })));
    if (!more || entries.length === 0) return made;
    after = entries.at(-1)!.position;
  }
}

/** A webhook.ping delivery to one subscription, due now (outside every lane). */
export async function queuePing(w: WebhookRecord, now = Date.now()): Promise<DeliveryRecord> {
  const id = `${deliveryIdOf(nextPosition(now))}_ping`;
  const delivery: DeliveryRecord = {
    webhook: w.id,
    id,
    event_type: PING_TYPE,
    body: JSON.stringify({ type: PING_TYPE, timestamp: utc(now), data: { webhook_id: w.id } }),
    status: 'pending',
    created_utc: utc(now),
    attempts: [],
    attempt_count: 0,
    next_attempt_ms: now,
  };
  await createDelivery(delivery, now);
  return delivery;
}
