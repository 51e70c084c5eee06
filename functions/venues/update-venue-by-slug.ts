import { venueOps } from '../../shared/contracts/venues';
import { createHandler } from '../../shared/http/handler';
import { venues } from '../../shared/services/venues';

export const handler = createHandler(venueOps.updateBySlug, (req) =>
  venues.update({ slug: req.params.slug }, req.body, req.sent, req),
);
