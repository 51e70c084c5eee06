import type { eventOps } from '../../shared/contracts/events';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/listEvents';
import { LISTS, listReply } from '../../shared/http/replies';
import { listEvents } from '../../shared/services/events/list';

export const handler = createHandler<typeof eventOps.list>(compiled, async (req) =>
  listReply(await listEvents(req.query, req), LISTS.events, req.urls),
);
