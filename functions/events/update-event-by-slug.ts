import { eventOps } from '../../shared/contracts/events';
import { createHandler } from '../../shared/http/handler';
import { events } from '../../shared/services/events';

export const handler = createHandler(eventOps.updateBySlug, (req) =>
  events.update({ slug: req.params.slug }, req.body, req.sent, req),
);
