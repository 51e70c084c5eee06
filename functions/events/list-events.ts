import { eventOps } from '../../shared/contracts/events';
import { createHandler } from '../../shared/http/handler';
import { listEvents } from '../../shared/services/event-list';

export const handler = createHandler(eventOps.list, (req) => listEvents(req.query, req));
