import { eventOps } from '../../shared/contracts/events';
import { createHandler } from '../../shared/http/handler';
import * as validators from '../../shared/schemas/compiled/createEvent';
import { created } from '../../shared/http/replies';
import { createEvent } from '../../shared/services/event-write';

export const handler = createHandler(eventOps.create, validators, async (req) => {
  const event = await createEvent(req.body, req.sent, req);
  return created(event, String(event.rest_url));
});
