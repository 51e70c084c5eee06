import { eventOps } from '../../shared/contracts/events';
import { createHandler } from '../../shared/http/handler';
import { events } from '../../shared/services/events';

export const handler = createHandler(eventOps.delete, (req) =>
  events.remove({ id: req.params.id }, req.query.force ?? false, req),
);
