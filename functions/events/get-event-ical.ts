import { eventOps } from '../../shared/contracts/events';
import { createHandler } from '../../shared/http/handler';
import * as validators from '../../shared/schemas/compiled/getEventIcal';
import { calendarReply } from '../../shared/http/replies';
import { eventCalendar } from '../../shared/services/event-ical';

export const handler = createHandler(eventOps.icalOne, validators, async (req) =>
  calendarReply(await eventCalendar(req.params.id, req), req.user),
);
