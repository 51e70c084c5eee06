import { venueOps } from '../../shared/contracts/venues';
import { createHandler } from '../../shared/http/handler';
import * as validators from '../../shared/schemas/compiled/listVenues';
import { LISTS, listReply } from '../../shared/http/replies';
import { linkedPostReads } from '../../shared/services/linked-read';
import { venueView } from '../../shared/services/venue-type';

const venues = linkedPostReads(venueView);

export const handler = createHandler(venueOps.list, validators, async (req) =>
  listReply(await venues.list(req.query, req), LISTS.venues, req.urls),
);
