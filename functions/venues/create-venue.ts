import type { venueOps } from '../../shared/contracts/venues';
import { createHandler } from '../../shared/http/handler';
import { idempotent } from '../../shared/http/idempotency';
import * as compiled from '../../shared/schemas/compiled/createVenue';
import { created } from '../../shared/http/replies';
import { linkedPostWrites } from '../../shared/services/linked/write';
import { venueType } from '../../shared/services/linked/write';

const venues = linkedPostWrites(venueType);

// Sent with an Idempotency-Key, the create is done at most once (shared/http/idempotency.ts).
export const handler = createHandler<typeof venueOps.create>(
  compiled,
  idempotent(compiled.operation, async (req) => {
    const record = await venues.create(req.body, req.sent, req);
    return created(record, `${req.root}/venues/${record.id}`);
  }),
);
