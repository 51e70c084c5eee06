import { tagOps } from '../../shared/contracts/terms';
import { createHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/replies';
import { termReads } from '../../shared/services/term-read';

const tags = termReads('post_tag');

export const handler = createHandler(tagOps.get, async (req) => ok(await tags.get(req.params.id, req)));
