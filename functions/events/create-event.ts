import { eventOps } from '../../shared/contracts/events';
import { createHandler } from '../../shared/http/handler';
import { idempotent } from '../../shared/http/idempotency';
import * as validators from '../../shared/schemas/compiled/createEvent';
import { created } from '../../shared/http/replies';
import { createEvent } from '../../shared/services/event-write';

// Sent with an Idempotency-Key, the create is done at most once (shared/http/idempotency.ts).
export const handler = createHandler(
  eventOps.create,
  validators,
  idempotent(eventOps.create, async (req) => {
    const event = await createEvent(req.body, req.sent, req);
    return created(event, String(event.rest_url));
  }),
);
