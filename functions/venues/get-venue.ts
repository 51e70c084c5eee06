import { venueOps } from '../../shared/contracts/venues';
import { createHandler } from '../../shared/http/handler';
import { venues } from '../../shared/services/venues';

export const handler = createHandler(venueOps.get, (req) => venues.get({ id: req.params.id }, req));
