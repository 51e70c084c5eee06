import type { tagOps } from '../../shared/contracts/terms';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/getTag';
import { ok } from '../../shared/http/replies';
import { termReads } from '../../shared/services/terms';

const tags = termReads('post_tag');

export const handler = createHandler<typeof tagOps.get>(compiled, async (req) =>
  ok(await tags.get(req.params.id, req)),
);
