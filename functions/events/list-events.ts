import type { eventOps } from '../../shared/contracts/events';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/listEvents';
import { LISTS, listReply } from '../../shared/http/replies';
import { listEvents } from '../../shared/services/events/list';
import { seriesPending } from '../../shared/services/series';

export const handler = createHandler<typeof eventOps.list>(compiled, async (req) => {
  // Read before the list: 0 then means every occurrence was written before the list was read.
  const pending = req.query.series === undefined ? undefined : await seriesPending(req.query.series);
  const reply = listReply(await listEvents(req.query, req), LISTS.events, req.urls);
  if (pending === undefined) return reply;
  return { ...reply, headers: { ...reply.headers, 'X-Cal-Series-Pending': String(pending) } };
});
