import type { categoryOps } from '../../shared/contracts/terms';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/updateCategory';
import { ok } from '../../shared/http/replies';
import { termWrites } from '../../shared/services/terms';

const categories = termWrites('tribe_events_cat');

export const handler = createHandler<typeof categoryOps.update>(compiled, async (req) =>
  ok(await categories.update(req.params.id, req.body, req.sent, req)),
);
