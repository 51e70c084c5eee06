import { organizerOps } from '../../shared/contracts/organizers';
import { createHandler } from '../../shared/http/handler';
import { LISTS, listReply } from '../../shared/http/replies';
import { linkedPostReads } from '../../shared/services/linked-read';
import { organizerType } from '../../shared/services/organizer-type';

const organizers = linkedPostReads(organizerType);

export const handler = createHandler(organizerOps.list, async (req) =>
  listReply(await organizers.list(req.query, req), LISTS.organizers, req.urls),
);
