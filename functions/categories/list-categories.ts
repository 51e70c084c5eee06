import type { categoryOps } from '../../shared/contracts/terms';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/listCategories';
import { LISTS, listReply } from '../../shared/http/replies';
import { termReads } from '../../shared/services/terms';

const categories = termReads('tribe_events_cat');

export const handler = createHandler<typeof categoryOps.list>(compiled, async (req) =>
  listReply(await categories.list(req.query, req), LISTS.categories, req.urls),
);
