import { venueOps } from '../../shared/contracts/venues';
import { createHandler } from '../../shared/http/handler';
import * as validators from '../../shared/schemas/compiled/deleteVenue';
import { ok } from '../../shared/http/replies';
import { linkedPostDeletes } from '../../shared/services/linked-delete';
import { venueView } from '../../shared/services/venue-type';

const venues = linkedPostDeletes(venueView);

export const handler = createHandler(venueOps.delete, validators, async (req) =>
  ok(await venues.remove({ id: req.params.id }, req.query.force ?? false, req)),
);
