import type { webhookOps } from '../../shared/contracts/webhooks';
import { createHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/replies';
import * as compiled from '../../shared/schemas/compiled/getWebhook';
import { getWebhookView } from '../../shared/services/webhooks';

export const handler = createHandler<typeof webhookOps.get>(compiled, async (req) =>
  ok(await getWebhookView(req.params.id, req)),
);
