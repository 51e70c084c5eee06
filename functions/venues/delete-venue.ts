import { venueOps } from '../../shared/contracts/venues';
import { createHandler } from '../../shared/http/handler';
import { venues } from '../../shared/services/venues';

export const handler = createHandler(venueOps.delete, (req) =>
  venues.remove({ id: req.params.id }, req.query.force ?? false, req),
);
