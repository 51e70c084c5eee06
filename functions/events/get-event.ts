import { eventOps } from '../../shared/contracts/events';
import { createHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/replies';
import { getEvent } from '../../shared/services/event-read';

export const handler = createHandler(eventOps.get, async (req) =>
  ok(await getEvent({ id: req.params.id }, req)),
);
