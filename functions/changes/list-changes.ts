import type { changeOps } from '../../shared/contracts/changes';
import { createHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/replies';
import * as compiled from '../../shared/schemas/compiled/listChanges';
import { listChanges } from '../../shared/services/feeds/changes';

export const handler = createHandler<typeof changeOps.list>(compiled, async (req) =>
  ok(await listChanges(req.query, req)),
);
