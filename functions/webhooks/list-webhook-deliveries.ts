import type { webhookOps } from '../../shared/contracts/webhooks';
import { createHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/replies';
import * as compiled from '../../shared/schemas/compiled/listWebhookDeliveries';
import { listDeliveries } from '../../shared/services/webhooks';

export const handler = createHandler<typeof webhookOps.deliveries>(compiled, async (req) =>
  ok(await listDeliveries(req.params.id, req.query)),
);
