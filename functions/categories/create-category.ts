import { categoryOps } from '../../shared/contracts/terms';
import { createHandler } from '../../shared/http/handler';
import { idempotent } from '../../shared/http/idempotency';
import * as validators from '../../shared/schemas/compiled/createCategory';
import { created } from '../../shared/http/replies';
import { termWrites } from '../../shared/services/term-write';

const categories = termWrites('tribe_events_cat');

// Sent with an Idempotency-Key, the create is done at most once (shared/http/idempotency.ts).
export const handler = createHandler(
  categoryOps.create,
  validators,
  idempotent(categoryOps.create, async (req) => {
    const term = await categories.create(req.body, req);
    return created(term, term.urls.self);
  }),
);
