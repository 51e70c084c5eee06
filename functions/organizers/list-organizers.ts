import type { organizerOps } from '../../shared/contracts/organizers';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/listOrganizers';
import { LISTS, listReply } from '../../shared/http/replies';
import { linkedPostReads } from '../../shared/services/linked';
import { organizerView } from '../../shared/services/linked';

const organizers = linkedPostReads(organizerView);

export const handler = createHandler<typeof organizerOps.list>(compiled, async (req) =>
  listReply(await organizers.list(req.query, req), LISTS.organizers, req.urls),
);
