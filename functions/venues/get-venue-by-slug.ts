import type { venueOps } from '../../shared/contracts/venues';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/getVenueBySlug';
import { ok } from '../../shared/http/replies';
import { linkedPostReads } from '../../shared/services/linked';
import { venueView } from '../../shared/services/linked';

const venues = linkedPostReads(venueView);

export const handler = createHandler<typeof venueOps.getBySlug>(compiled, async (req) =>
  ok(await venues.get({ slug: req.params.slug }, req)),
);
