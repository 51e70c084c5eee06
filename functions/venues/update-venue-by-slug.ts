import type { venueOps } from '../../shared/contracts/venues';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/updateVenueBySlug';
import { ok } from '../../shared/http/replies';
import { linkedPostWrites } from '../../shared/services/linked/write';
import { venueType } from '../../shared/services/linked/write';

const venues = linkedPostWrites(venueType);

export const handler = createHandler<typeof venueOps.updateBySlug>(compiled, async (req) =>
  ok(await venues.update({ slug: req.params.slug }, req.body, req.sent, req)),
);
