import type { eventOps } from '../../shared/contracts/events';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/updateEvent';
import { ok, seriesAccepted } from '../../shared/http/replies';
import type { SeriesProgress } from '../../shared/services/event-series';
import { updateEvent } from '../../shared/services/event-write';

export const handler = createHandler<typeof eventOps.update>(compiled, async (req) => {
  let progress: SeriesProgress | undefined;
  const event = await updateEvent(
    { id: req.params.id },
    req.body,
    req.sent,
    req,
    req.query.scope,
    (p) => (progress = p),
  );
  // Occurrences still to write: a 202 says how many (issue 38).
  return progress ? seriesAccepted(event, String(event.rest_url), progress) : ok(event);
});
