import type { webhookOps } from '../../shared/contracts/webhooks';
import { createHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/replies';
import * as compiled from '../../shared/schemas/compiled/deleteWebhook';
import { deleteWebhook } from '../../shared/services/webhooks';

export const handler = createHandler<typeof webhookOps.delete>(compiled, async (req) =>
  ok(await deleteWebhook(req.params.id, req)),
);
