import { categoryOps } from '../../shared/contracts/terms';
import { createHandler } from '../../shared/http/handler';
import * as validators from '../../shared/schemas/compiled/updateCategory';
import { ok } from '../../shared/http/replies';
import { termWrites } from '../../shared/services/term-write';

const categories = termWrites('tribe_events_cat');

export const handler = createHandler(categoryOps.update, validators, async (req) =>
  ok(await categories.update(req.params.id, req.body, req.sent, req)),
);
