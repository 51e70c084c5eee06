import { idPath } from '../schemas/common';
import {
  deliveriesQuery,
  deliveryPage,
  deliveryPath,
  deliverySchema,
  webhookCreateBody,
  webhookList,
  webhookSchema,
  webhookUpdateBody,
  webhookWithSecret,
} from '../schemas/webhooks';
import { errors, READ_ERRORS, WRITE_ERRORS } from './responses';
import type { Operation } from './types';

/** Webhook subscriptions and their deliveries (docs/webhooks.md): administrators only. */
const dir = 'functions/webhooks';
const ADMIN_READ = [...READ_ERRORS, 403] as const;

export const webhookOps = {
  list: {
    operationId: 'listWebhooks',
    methods: ['GET'],
    path: '/webhooks',
    handler: `${dir}/list-webhooks`,
    summary: 'List webhook subscriptions (never their secrets)',
    access: 'administrator',
    readOnly: true,
    responses: { 200: { description: 'Every subscription.', schema: webhookList }, ...errors(...ADMIN_READ) },
  },
  create: {
    operationId: 'createWebhook',
    methods: ['POST'],
    path: '/webhooks',
    handler: `${dir}/create-webhook`,
    summary: 'Subscribe a URL to changes, signed with a secret shown only in this answer',
    access: 'administrator',
    readOnly: false,
    body: webhookCreateBody,
    responses: {
      201: { description: 'The subscription and its signing secret.', schema: webhookWithSecret },
      ...errors(...WRITE_ERRORS),
    },
  },
  get: {
    operationId: 'getWebhook',
    methods: ['GET'],
    path: '/webhooks/{id}',
    handler: `${dir}/get-webhook`,
    summary: 'Read a webhook subscription',
    access: 'administrator',
    readOnly: true,
    pathParams: idPath,
    responses: {
      200: { description: 'The subscription.', schema: webhookSchema },
      ...errors(...ADMIN_READ, 404),
    },
  },
  update: {
    operationId: 'updateWebhook',
    methods: ['PATCH'],
    path: '/webhooks/{id}',
    handler: `${dir}/update-webhook`,
    summary: 'Change a webhook subscription (partial); active: true re-enables a disabled one',
    access: 'administrator',
    readOnly: false,
    pathParams: idPath,
    body: webhookUpdateBody,
    responses: {
      200: { description: 'The changed subscription.', schema: webhookSchema },
      ...errors(...WRITE_ERRORS, 404),
    },
  },
  delete: {
    operationId: 'deleteWebhook',
    methods: ['DELETE'],
    path: '/webhooks/{id}',
    handler: `${dir}/delete-webhook`,
    summary: 'Delete a webhook subscription; its pending deliveries are dropped',
    access: 'administrator',
    readOnly: false,
    pathParams: idPath,
    responses: {
      200: { description: 'The deleted subscription.', schema: webhookSchema },
      ...errors(...WRITE_ERRORS, 404),
    },
  },
  rotateSecret: {
    operationId: 'rotateWebhookSecret',
    methods: ['POST'],
    path: '/webhooks/{id}/rotate-secret',
    handler: `${dir}/rotate-webhook-secret`,
    summary: 'A new signing secret; the previous one keeps signing beside it for 24 hours',
    access: 'administrator',
    readOnly: false,
    pathParams: idPath,
    responses: {
      200: {
        description: 'The subscription and its new secret, shown only here.',
        schema: webhookWithSecret,
      },
      ...errors(...WRITE_ERRORS, 404),
    },
  },
  ping: {
    operationId: 'pingWebhook',
    methods: ['POST'],
    path: '/webhooks/{id}/ping',
    handler: `${dir}/ping-webhook`,
    summary: 'Queue a webhook.ping delivery to the subscription',
    access: 'administrator',
    readOnly: false,
    pathParams: idPath,
    responses: {
      200: {
        description: 'The queued delivery: read its attempts in the deliveries.',
        schema: deliverySchema,
      },
      ...errors(...WRITE_ERRORS, 404),
    },
  },
  deliveries: {
    operationId: 'listWebhookDeliveries',
    methods: ['GET'],
    path: '/webhooks/{id}/deliveries',
    handler: `${dir}/list-webhook-deliveries`,
    summary: 'Deliveries of a subscription, newest first, with their attempts',
    access: 'administrator',
    readOnly: true,
    pathParams: idPath,
    query: deliveriesQuery,
    responses: {
      200: { description: 'A page of deliveries.', schema: deliveryPage },
      ...errors(...ADMIN_READ, 404),
    },
  },
  retry: {
    operationId: 'retryWebhookDelivery',
    methods: ['POST'],
    path: '/webhooks/{id}/deliveries/{delivery}/retry',
    handler: `${dir}/retry-webhook-delivery`,
    summary: 'Try a failed delivery again now (same webhook-id and body)',
    access: 'administrator',
    readOnly: false,
    pathParams: deliveryPath,
    responses: {
      200: { description: 'The delivery, pending again.', schema: deliverySchema },
      ...errors(...WRITE_ERRORS, 404, 409),
    },
  },
} as const satisfies Record<string, Operation>;
