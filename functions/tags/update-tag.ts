import type { tagOps } from '../../shared/contracts/terms';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/updateTag';
import { ok } from '../../shared/http/replies';
import { termWrites } from '../../shared/services/terms';

const tags = termWrites('post_tag');

export const handler = createHandler<typeof tagOps.update>(compiled, async (req) =>
  ok(await tags.update(req.params.id, req.body, req.sent, req)),
);
