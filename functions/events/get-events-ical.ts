import { eventOps } from '../../shared/contracts/events';
import { createHandler } from '../../shared/http/handler';
import * as validators from '../../shared/schemas/compiled/getEventsIcal';
import { calendarReply } from '../../shared/http/replies';
import { eventsFeed } from '../../shared/services/event-ical';

export const handler = createHandler(eventOps.ical, validators, async (req) =>
  calendarReply(await eventsFeed(req.query, req), req.user),
);
