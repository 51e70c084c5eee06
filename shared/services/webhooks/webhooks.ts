import { config } from '../../config';
import { DomainError, invalidParam } from '../../domain/errors';
import { newSecret, SECRET_OVERLAP_MS, type Visibility } from '../../domain/webhooks';
import { destinationRefusal, type Resolve } from '../../outbound/guarded-fetch';
import {
  deliveriesOf,
  type DeliveryRecord,
  getDelivery,
  reopenDelivery,
} from '../../repositories/webhook-deliveries';
import {
  deleteWebhook as deleteRecord,
  getWebhook,
  listWebhooks as listRecords,
  putWebhook,
  updateWebhook as updateRecord,
  type WebhookRecord,
  nextWebhookId,
} from '../../repositories/webhooks';
import type { Caller } from '../common';
import { queuePing } from './dispatch';

/** The subscriptions API (administrators only; docs/webhooks.md). Secrets leave only at creation and rotation. */

export interface WebhookInput {
  url?: string;
  events?: string[];
  description?: string;
  active?: boolean;
  visibility?: Visibility;
}

const utc = (ms: number) => new Date(ms).toISOString();

const webhookNotFound = (id: number) =>
  new DomainError('not-found', 'rest_webhook_not_found', `Webhook ${id} does not exist.`);

/** What a subscription shows: everything but its secrets and bookkeeping. */
export function webhookView(w: WebhookRecord, root: string) {
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    description: w.description,
    active: w.active,
    visibility: w.visibility,
    ...(w.disabled_reason ? { disabled_reason: w.disabled_reason } : {}),
    created_utc: w.created_utc,
    modified_utc: w.modified_utc,
    ...(w.last_success_utc ? { last_success_utc: w.last_success_utc } : {}),
    rest_url: `${root}/webhooks/${w.id}`,
  };
}

export function deliveryView(d: DeliveryRecord) {
  return {
    id: d.id,
    type: d.event_type,
    ...(d.resource ? { resource: d.resource, record_id: d.record_id } : {}),
    status: d.status,
    created_utc: d.created_utc,
    ...(d.status === 'pending' && d.next_attempt_ms !== undefined
      ? { next_attempt_utc: utc(d.next_attempt_ms) }
      : {}),
    ...(d.error ? { error: d.error } : {}),
    attempts: d.attempts,
  };
}

/** The outbound policy of this process: loopback and http only in the local stack. */
export const outboundPolicy = () => ({ local: config.outboundLocal });

/** A 400 naming `url` when deliveries could not be made to it. Tests give their own resolver. */
export async function checkDestination(url: string, resolve?: Resolve): Promise<void> {
  const why = await destinationRefusal(url, outboundPolicy(), resolve);
  if (why) throw invalidParam('url', `url is not allowed: ${why}.`, 'rest_webhook_url_refused');
}

async function load(id: number): Promise<WebhookRecord> {
  const w = await getWebhook(id);
  if (!w) throw webhookNotFound(id);
  return w;
}

export async function createWebhook(body: WebhookInput & { url: string; events: string[] }, ctx: Caller) {
  await checkDestination(body.url);
  const now = Date.now();
  const secret = newSecret();
  const record: WebhookRecord = {
    id: await nextWebhookId(),
    url: body.url,
    events: body.events,
    description: body.description ?? '',
    active: body.active ?? true,
    visibility: body.visibility ?? 'public',
    secrets: [{ secret }],
    created_utc: utc(now),
    modified_utc: utc(now),
  };
  await putWebhook(record);
  return { ...webhookView(record, ctx.root), secret };
}

export async function listWebhooks(ctx: Caller) {
  return { webhooks: (await listRecords()).map((w) => webhookView(w, ctx.root)) };
}

export const getWebhookView = async (id: number, ctx: Caller) => webhookView(await load(id), ctx.root);

export async function updateWebhook(id: number, body: WebhookInput, ctx: Caller) {
  if (body.url !== undefined) await checkDestination(body.url);
  const set: Partial<WebhookRecord> = { modified_utc: utc(Date.now()) };
  for (const k of ['url', 'events', 'description', 'active', 'visibility'] as const)
    if (body[k] !== undefined) Object.assign(set, { [k]: body[k] });
  // Turned on again by hand: the service's reason to stop and the failing streak are history.
  const remove: Array<keyof WebhookRecord> =
    body.active === true ? ['disabled_reason', 'failing_since_ms'] : [];
  const w = await updateRecord(id, set, remove);
  if (!w) throw webhookNotFound(id);
  return webhookView(w, ctx.root);
}

export async function deleteWebhook(id: number, ctx: Caller) {
  const w = await deleteRecord(id);
  if (!w) throw webhookNotFound(id);
  return webhookView(w, ctx.root);
}

/** A new current secret; the previous one signs beside it for 24 hours (older rotated ones are dropped). */
export async function rotateSecret(id: number, ctx: Caller) {
  const w = await load(id);
  const now = Date.now();
  const current = w.secrets.find((s) => s.expires_ms === undefined);
  const secret = newSecret();
  const secrets = [
    { secret },
    ...(current ? [{ secret: current.secret, expires_ms: now + SECRET_OVERLAP_MS }] : []),
  ];
  const updated = await updateRecord(id, { secrets, modified_utc: utc(now) });
  if (!updated) throw webhookNotFound(id);
  return { ...webhookView(updated, ctx.root), secret };
}

export async function pingWebhook(id: number) {
  return deliveryView(await queuePing(await load(id)));
}

const CURSOR = /^[A-Za-z0-9_-]+$/;

export async function listDeliveries(id: number, q: { cursor?: string; per_page?: number }) {
  await load(id);
  const after = q.cursor && CURSOR.test(q.cursor) ? Buffer.from(q.cursor, 'base64url').toString() : undefined;
  if (q.cursor !== undefined && !after?.startsWith('DELIVERY#msg_'))
    throw invalidParam('cursor', 'cursor is not a cursor of this list (use next_cursor as it was given).');
  const page = await deliveriesOf(id, q.per_page ?? 20, after);
  return {
    deliveries: page.deliveries.map(deliveryView),
    ...(page.last ? { next_cursor: Buffer.from(page.last).toString('base64url') } : {}),
  };
}

export async function retryDelivery(id: number, deliveryId: string) {
  await load(id);
  const d = await getDelivery(id, deliveryId);
  if (!d)
    throw new DomainError('not-found', 'rest_delivery_not_found', `Delivery ${deliveryId} does not exist.`);
  if (!(await reopenDelivery(d, Date.now())))
    throw new DomainError(
      'conflict',
      'rest_delivery_not_failed',
      'Only a failed delivery can be retried; this one is pending or was delivered.',
    );
  return deliveryView((await getDelivery(id, deliveryId))!);
}
