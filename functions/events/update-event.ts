import type { eventOps } from '../../shared/contracts/events';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/updateEvent';
import { ok, seriesWriteReply } from '../../shared/http/replies';
import { updateEvent } from '../../shared/services/events/write';

// Occurrences still to write: a 202 says how many (issue 38).
export const handler = createHandler<typeof eventOps.update>(compiled, (req) =>
  seriesWriteReply(
    (onProgress) => updateEvent({ id: req.params.id }, req.body, req.sent, req, req.query.scope, onProgress),
    ok,
  ),
);
