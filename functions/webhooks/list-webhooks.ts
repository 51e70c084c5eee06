import type { webhookOps } from '../../shared/contracts/webhooks';
import { createHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/replies';
import * as compiled from '../../shared/schemas/compiled/listWebhooks';
import { listWebhooks } from '../../shared/services/webhooks';

export const handler = createHandler<typeof webhookOps.list>(compiled, async (req) =>
  ok(await listWebhooks(req)),
);
