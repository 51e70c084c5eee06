import type { categoryOps } from '../../shared/contracts/terms';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/deleteCategory';
import { ok } from '../../shared/http/replies';
import { termDeletes } from '../../shared/services/terms';

const categories = termDeletes('tribe_events_cat');

export const handler = createHandler<typeof categoryOps.delete>(compiled, async (req) =>
  ok(await categories.remove(req.params.id, req)),
);
