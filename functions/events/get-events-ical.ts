import type { eventOps } from '../../shared/contracts/events';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/getEventsIcal';
import { calendarReply } from '../../shared/http/replies';
import { eventsFeed } from '../../shared/services/feeds/ical';

export const handler = createHandler<typeof eventOps.ical>(compiled, async (req) =>
  calendarReply(await eventsFeed(req.query, req, compiled.operation.shapes.query.properties), req.user),
);
