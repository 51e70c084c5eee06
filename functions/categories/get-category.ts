import type { categoryOps } from '../../shared/contracts/terms';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/getCategory';
import { ok } from '../../shared/http/replies';
import { termReads } from '../../shared/services/terms';

const categories = termReads('tribe_events_cat');

export const handler = createHandler<typeof categoryOps.get>(compiled, async (req) =>
  ok(await categories.get(req.params.id, req)),
);
