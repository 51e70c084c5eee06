import { venueOps } from '../../shared/contracts/venues';
import { createHandler } from '../../shared/http/handler';
import { LISTS, listReply } from '../../shared/http/replies';
import { linkedPostReads } from '../../shared/services/linked-read';
import { venueView } from '../../shared/services/venue-type';

const venues = linkedPostReads(venueView);

export const handler = createHandler(venueOps.list, async (req) =>
  listReply(await venues.list(req.query, req), LISTS.venues, req.urls),
);
