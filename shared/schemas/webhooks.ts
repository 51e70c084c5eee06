import { CHANGE_RESOURCES } from '../domain/changes';
import { VISIBILITIES, WEBHOOK_EVENT_TYPES } from '../domain/webhooks';
import { idPath, text } from './common';

/** Schemas of the webhook subscriptions (administrators only, docs/webhooks.md). */

const url = {
  type: 'string',
  minLength: 1,
  maxLength: 2000,
  description:
    'Where deliveries are POSTed: https only, to a host on the public internet (the local stack also takes http://127.0.0.1 and localhost).',
} as const;

const events = {
  type: 'array',
  items: { type: 'string', enum: WEBHOOK_EVENT_TYPES },
  minItems: 1,
  maxItems: 50,
  uniqueItems: true,
  description:
    'Types to deliver: <resource>.<action> (event, venue, organizer, category, tag × created, updated, removed, restored), <resource>.* or *.',
} as const;

const visibility = {
  type: 'string',
  enum: VISIBILITIES,
  description:
    'public: what an anonymous caller’s change feed shows, records as an anonymous caller reads them; editor: what an editor’s feed shows (drafts, pending and private records too).',
} as const;

const description = text('A note for administrators.', 500);
const active = { type: 'boolean', description: 'Whether deliveries are made; false pauses them.' } as const;

export const webhookCreateBody = {
  type: 'object',
  properties: { url, events, description, active, visibility },
  required: ['url', 'events'],
  additionalProperties: false,
} as const;

export const webhookUpdateBody = {
  type: 'object',
  properties: { url, events, description, active, visibility },
  additionalProperties: false,
} as const;

export const webhookSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer', minimum: 1 },
    url: { type: 'string' },
    events: { type: 'array', items: { type: 'string' } },
    description: { type: 'string' },
    active: { type: 'boolean' },
    visibility: { type: 'string', enum: VISIBILITIES },
    disabled_reason: {
      type: 'string',
      description:
        'Why the service stopped deliveries (410 Gone, or five days without a success); absent otherwise.',
    },
    created_utc: { type: 'string' },
    modified_utc: { type: 'string' },
    last_success_utc: {
      type: 'string',
      description: 'The last delivery the receiver accepted; absent before.',
    },
    rest_url: { type: 'string' },
  },
  required: [
    'id',
    'url',
    'events',
    'description',
    'active',
    'visibility',
    'created_utc',
    'modified_utc',
    'rest_url',
  ],
  additionalProperties: false,
} as const;

/** The subscription with its signing secret: only the answers of create and rotate-secret carry it. */
export const webhookWithSecret = {
  ...webhookSchema,
  properties: {
    ...webhookSchema.properties,
    secret: {
      type: 'string',
      description:
        'The signing secret (whsec_ + base64), shown only in this answer: keep it; it is never shown again.',
    },
  },
  required: [...webhookSchema.required, 'secret'],
} as const;

export const webhookList = {
  type: 'object',
  properties: { webhooks: { type: 'array', items: webhookSchema } },
  required: ['webhooks'],
  additionalProperties: false,
} as const;

export const deliveryPath = {
  type: 'object',
  properties: {
    ...idPath.properties,
    delivery: {
      type: 'string',
      pattern: '^msg_[A-Za-z0-9_]{1,80}$',
      description: 'The delivery’s webhook-id.',
    },
  },
  required: ['id', 'delivery'],
  additionalProperties: false,
} as const;

const attempt = {
  type: 'object',
  properties: {
    at_utc: { type: 'string', description: 'When the attempt started (ISO 8601, UTC).' },
    status: { type: 'integer', description: 'The receiver’s HTTP status; absent when it gave none.' },
    latency_ms: { type: 'integer', minimum: 0 },
    error: {
      type: 'string',
      description: 'Why the attempt failed (timeout, network error, refused address, status).',
    },
  },
  required: ['at_utc', 'latency_ms'],
  additionalProperties: false,
} as const;

export const deliverySchema = {
  type: 'object',
  properties: {
    id: { type: 'string', description: 'The webhook-id header of every attempt.' },
    type: { type: 'string' },
    resource: { type: 'string', enum: CHANGE_RESOURCES },
    record_id: { type: 'integer' },
    status: {
      type: 'string',
      enum: ['pending', 'delivered', 'failed'],
      description:
        'pending: waiting for its turn or its next try; delivered: a 2xx; failed: given up (retryable).',
    },
    created_utc: { type: 'string' },
    next_attempt_utc: { type: 'string', description: 'When the next try is due (pending only).' },
    error: { type: 'string', description: 'Why a failed delivery was given up.' },
    attempts: { type: 'array', items: attempt, description: 'The latest attempts, oldest first.' },
  },
  required: ['id', 'type', 'status', 'created_utc', 'attempts'],
  additionalProperties: false,
} as const;

export const deliveriesQuery = {
  type: 'object',
  properties: {
    cursor: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'next_cursor of the previous page.',
    },
    per_page: { type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'Deliveries per page.' },
  },
} as const;

export const deliveryPage = {
  type: 'object',
  properties: {
    deliveries: { type: 'array', items: deliverySchema, description: 'Newest first.' },
    next_cursor: {
      type: 'string',
      description: 'Send as cursor for older deliveries; absent on the last page.',
    },
  },
  required: ['deliveries'],
  additionalProperties: false,
} as const;
