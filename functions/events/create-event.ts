import type { eventOps } from '../../shared/contracts/events';
import { createHandler } from '../../shared/http/handler';
import { idempotent } from '../../shared/http/idempotency';
import * as compiled from '../../shared/schemas/compiled/createEvent';
import { created } from '../../shared/http/replies';
import { createEvent } from '../../shared/services/event-write';

// Sent with an Idempotency-Key, the create is done at most once (shared/http/idempotency.ts).
export const handler = createHandler<typeof eventOps.create>(
  compiled,
  idempotent(compiled.operation, async (req) => {
    const event = await createEvent(req.body, req.sent, req);
    return created(event, String(event.rest_url));
  }),
);
