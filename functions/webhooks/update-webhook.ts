import type { webhookOps } from '../../shared/contracts/webhooks';
import { createHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/replies';
import * as compiled from '../../shared/schemas/compiled/updateWebhook';
import { updateWebhook } from '../../shared/services/webhooks';

export const handler = createHandler<typeof webhookOps.update>(compiled, async (req) =>
  ok(await updateWebhook(req.params.id, req.body, req)),
);
