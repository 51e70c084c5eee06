import type { webhookOps } from '../../shared/contracts/webhooks';
import { createHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/replies';
import * as compiled from '../../shared/schemas/compiled/retryWebhookDelivery';
import { retryDelivery } from '../../shared/services/webhooks';

export const handler = createHandler<typeof webhookOps.retry>(compiled, async (req) =>
  ok(await retryDelivery(req.params.id, req.params.delivery)),
);
