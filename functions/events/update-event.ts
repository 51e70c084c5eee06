import { eventOps } from '../../shared/contracts/events';
import { createHandler } from '../../shared/http/handler';
import { events } from '../../shared/services/events';

export const handler = createHandler(eventOps.update, (req) =>
  events.update({ id: req.params.id }, req.body, req.sent, req),
);
