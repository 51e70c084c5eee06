import { venueOps } from '../../shared/contracts/venues';
import { createHandler } from '../../shared/http/handler';
import * as validators from '../../shared/schemas/compiled/deleteVenueBySlug';
import { ok } from '../../shared/http/replies';
import { linkedPostWrites } from '../../shared/services/linked-write';
import { venueType } from '../../shared/services/venue-input';

const venues = linkedPostWrites(venueType);

export const handler = createHandler(venueOps.deleteBySlug, validators, async (req) =>
  ok(await venues.remove({ slug: req.params.slug }, req.query.force ?? false, req)),
);
