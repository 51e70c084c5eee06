import type { organizerOps } from '../../shared/contracts/organizers';
import { createHandler } from '../../shared/http/handler';
import { idempotent } from '../../shared/http/idempotency';
import * as compiled from '../../shared/schemas/compiled/createOrganizer';
import { created } from '../../shared/http/replies';
import { linkedPostWrites } from '../../shared/services/linked/write';
import { organizerType } from '../../shared/services/linked/write';

const organizers = linkedPostWrites(organizerType);

// Sent with an Idempotency-Key, the create is done at most once (shared/http/idempotency.ts).
export const handler = createHandler<typeof organizerOps.create>(
  compiled,
  idempotent(compiled.operation, async (req) => {
    const record = await organizers.create(req.body, req.sent, req);
    return created(record, `${req.root}/organizers/${record.id}`);
  }),
);
