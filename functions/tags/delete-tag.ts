import type { tagOps } from '../../shared/contracts/terms';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/deleteTag';
import { ok } from '../../shared/http/replies';
import { termDeletes } from '../../shared/services/terms';

const tags = termDeletes('post_tag');

export const handler = createHandler<typeof tagOps.delete>(compiled, async (req) =>
  ok(await tags.remove(req.params.id, req)),
);
