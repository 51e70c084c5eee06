/** Webhook subscriptions (the API) and the dispatcher that turns changes into deliveries. */
export {
  catchUpChanges,
  dispatchChanges,
  dispatchChangesUntil,
  streamOrder,
  type StreamedChange,
} from './dispatch';
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
