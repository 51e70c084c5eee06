import type { tagOps } from '../../shared/contracts/terms';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/listTags';
import { LISTS, listReply } from '../../shared/http/replies';
import { termReads } from '../../shared/services/terms';

const tags = termReads('post_tag');

export const handler = createHandler<typeof tagOps.list>(compiled, async (req) =>
  listReply(await tags.list(req.query, req), LISTS.tags, req.urls),
);
