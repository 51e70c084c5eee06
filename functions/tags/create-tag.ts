import { tagOps } from '../../shared/contracts/terms';
import { createHandler } from '../../shared/http/handler';
import * as validators from '../../shared/schemas/compiled/createTag';
import { created } from '../../shared/http/replies';
import { termWrites } from '../../shared/services/term-write';

const tags = termWrites('post_tag');

export const handler = createHandler(tagOps.create, validators, async (req) => {
  const term = await tags.create(req.body, req);
  return created(term, term.urls.self);
});
