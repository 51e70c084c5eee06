import type { eventOps } from '../../shared/contracts/events';
import { createHandler } from '../../shared/http/handler';
import { idempotent } from '../../shared/http/idempotency';
import * as compiled from '../../shared/schemas/compiled/createEvent';
import { created, seriesAccepted } from '../../shared/http/replies';
import type { SeriesProgress } from '../../shared/services/event-series';
import { createEvent } from '../../shared/services/event-write';

// Sent with an Idempotency-Key, the create is done at most once (shared/http/idempotency.ts).
export const handler = createHandler<typeof eventOps.create>(
  compiled,
  idempotent(compiled.operation, async (req) => {
    let progress: SeriesProgress | undefined;
    const event = await createEvent(req.body, req.sent, req, (p) => (progress = p));
    // A series whose occurrences are not all written yet: a 202 says how many (issue 38).
    return progress
      ? seriesAccepted(event, String(event.rest_url), progress)
      : created(event, String(event.rest_url));
  }),
);
