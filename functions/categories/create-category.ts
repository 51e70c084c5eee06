import type { categoryOps } from '../../shared/contracts/terms';
import { createHandler } from '../../shared/http/handler';
import { idempotent } from '../../shared/http/idempotency';
import * as compiled from '../../shared/schemas/compiled/createCategory';
import { created } from '../../shared/http/replies';
import { termWrites } from '../../shared/services/terms';

const categories = termWrites('tribe_events_cat');

// Sent with an Idempotency-Key, the create is done at most once (shared/http/idempotency.ts).
export const handler = createHandler<typeof categoryOps.create>(
  compiled,
  idempotent(compiled.operation, async (req) => {
    const term = await categories.create(req.body, req);
    return created(term, term.urls.self);
  }),
);
