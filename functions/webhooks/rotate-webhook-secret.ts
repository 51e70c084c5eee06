import type { webhookOps } from '../../shared/contracts/webhooks';
import { createHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/replies';
import * as compiled from '../../shared/schemas/compiled/rotateWebhookSecret';
import { rotateSecret } from '../../shared/services/webhooks';

export const handler = createHandler<typeof webhookOps.rotateSecret>(compiled, async (req) =>
  ok(await rotateSecret(req.params.id, req)),
);
