import type { venueOps } from '../../shared/contracts/venues';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/listVenues';
import { LISTS, listReply } from '../../shared/http/replies';
import { linkedPostReads } from '../../shared/services/linked';
import { venueView } from '../../shared/services/linked';

const venues = linkedPostReads(venueView);

export const handler = createHandler<typeof venueOps.list>(compiled, async (req) =>
  listReply(await venues.list(req.query, req), LISTS.venues, req.urls),
);
