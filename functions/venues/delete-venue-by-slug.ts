import { venueOps } from '../../shared/contracts/venues';
import { createHandler } from '../../shared/http/handler';
import { venues } from '../../shared/services/venues';

export const handler = createHandler(venueOps.deleteBySlug, (req) =>
  venues.remove({ slug: req.params.slug }, req.query.force ?? false, req),
);
