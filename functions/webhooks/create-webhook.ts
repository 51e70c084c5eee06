import type { webhookOps } from '../../shared/contracts/webhooks';
import { createHandler } from '../../shared/http/handler';
import { created } from '../../shared/http/replies';
import * as compiled from '../../shared/schemas/compiled/createWebhook';
import { createWebhook } from '../../shared/services/webhooks';

export const handler = createHandler<typeof webhookOps.create>(compiled, async (req) => {
  const webhook = await createWebhook(req.body, req);
  return created(webhook, webhook.rest_url);
});
