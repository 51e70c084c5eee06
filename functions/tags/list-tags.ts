import { tagOps } from '../../shared/contracts/terms';
import { createHandler } from '../../shared/http/handler';
import { LISTS, listReply } from '../../shared/http/replies';
import { termReads } from '../../shared/services/term-read';

const tags = termReads('post_tag');

export const handler = createHandler(tagOps.list, async (req) =>
  listReply(await tags.list(req.query, req), LISTS.tags, req.urls),
);
