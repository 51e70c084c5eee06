import { eventOps } from '../../shared/contracts/events';
import { createHandler } from '../../shared/http/handler';
import { events } from '../../shared/services/events';

export const handler = createHandler(eventOps.deleteBySlug, (req) =>
  events.remove({ slug: req.params.slug }, req.query.force ?? false, req),
);
