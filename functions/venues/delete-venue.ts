import type { venueOps } from '../../shared/contracts/venues';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/deleteVenue';
import { ok } from '../../shared/http/replies';
import { linkedPostDeletes } from '../../shared/services/linked';
import { venueView } from '../../shared/services/linked';

const venues = linkedPostDeletes(venueView);

export const handler = createHandler<typeof venueOps.delete>(compiled, async (req) =>
  ok(await venues.remove({ id: req.params.id }, req.query.force ?? false, req)),
);
