import { eventOps } from '../../shared/contracts/events';
import { createHandler } from '../../shared/http/handler';
import { LISTS, listReply } from '../../shared/http/replies';
import { listEvents } from '../../shared/services/event-list';

export const handler = createHandler(eventOps.list, async (req) =>
  listReply(await listEvents(req.query, req), LISTS.events, req.urls),
);
