/** Webhook subscriptions, their dispatcher and deliverer (the engine). */
export { runJob } from './delivery';
export { catchUpChanges, dispatchChanges, streamOrder, type StreamedChange } from './dispatch';
export { STREAM_BATCH_RESERVE_MS, deliverQueuedJob, processStreamBatch } from './engine';
export {
  createWebhook,
  deleteWebhook,
  getWebhookView,
  listDeliveries,
  listWebhooks,
  pingWebhook,
  retryDelivery,
  rotateSecret,
  updateWebhook,
} from './webhooks';
