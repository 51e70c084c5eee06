import { eventOps } from '../../shared/contracts/events';
import { createHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/replies';
import { updateEvent } from '../../shared/services/event-write';

export const handler = createHandler(eventOps.updateBySlug, async (req) =>
  ok(await updateEvent({ slug: req.params.slug }, req.body, req.sent, req)),
);
