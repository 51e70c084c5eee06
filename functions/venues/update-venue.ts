import { venueOps } from '../../shared/contracts/venues';
import { createHandler } from '../../shared/http/handler';
import { venues } from '../../shared/services/venues';

export const handler = createHandler(venueOps.update, (req) =>
  venues.update({ id: req.params.id }, req.body, req.sent, req),
);
