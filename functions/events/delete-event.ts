import { eventOps } from '../../shared/contracts/events';
import { createHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/replies';
import { removeEvent } from '../../shared/services/event-write';

export const handler = createHandler(eventOps.delete, async (req) =>
  ok(await removeEvent({ id: req.params.id }, req.query.force ?? false, req)),
);
