import type { eventOps } from '../../shared/contracts/events';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/updateEventBySlug';
import { ok, seriesWriteReply } from '../../shared/http/replies';
import { updateEvent } from '../../shared/services/events/write';

// Occurrences still to write: a 202 says how many (issue 38).
export const handler = createHandler<typeof eventOps.updateBySlug>(compiled, (req) =>
  seriesWriteReply(
    (onProgress) =>
      updateEvent({ slug: req.params.slug }, req.body, req.sent, req, req.query.scope, onProgress),
    ok,
  ),
);
