import type { webhookOps } from '../../shared/contracts/webhooks';
import { createHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/replies';
import * as compiled from '../../shared/schemas/compiled/pingWebhook';
import { pingWebhook } from '../../shared/services/webhooks';

export const handler = createHandler<typeof webhookOps.ping>(compiled, async (req) =>
  ok(await pingWebhook(req.params.id)),
);
