import { tagOps } from '../../shared/contracts/terms';
import { createHandler } from '../../shared/http/handler';
import * as validators from '../../shared/schemas/compiled/getTag';
import { ok } from '../../shared/http/replies';
import { termReads } from '../../shared/services/term-read';

const tags = termReads('post_tag');

export const handler = createHandler(tagOps.get, validators, async (req) =>
  ok(await tags.get(req.params.id, req)),
);
