import type { eventOps } from '../../shared/contracts/events';
import { createHandler } from '../../shared/http/handler';
import { idempotent } from '../../shared/http/idempotency';
import * as compiled from '../../shared/schemas/compiled/createEvent';
import { created, seriesWriteReply } from '../../shared/http/replies';
import { createEvent } from '../../shared/services/events/write';

// Sent with an Idempotency-Key, the create is done at most once (shared/http/idempotency.ts). A series
// whose occurrences are not all written yet: a 202 says how many (issue 38).
export const handler = createHandler<typeof eventOps.create>(
  compiled,
  idempotent(compiled.operation, (req) =>
    seriesWriteReply(
      (onProgress) => createEvent(req.body, req.sent, req, onProgress),
      (event) => created(event, String(event.rest_url)),
    ),
  ),
);
