import { tagOps } from '../../shared/contracts/terms';
import { createHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/replies';
import { termWrites } from '../../shared/services/term-write';

const tags = termWrites('post_tag');

export const handler = createHandler(tagOps.delete, async (req) => ok(await tags.remove(req.params.id, req)));
