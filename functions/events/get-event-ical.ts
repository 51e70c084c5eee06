import type { eventOps } from '../../shared/contracts/events';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/getEventIcal';
import { calendarReply } from '../../shared/http/replies';
import { eventCalendar } from '../../shared/services/feeds/ical';

export const handler = createHandler<typeof eventOps.icalOne>(compiled, async (req) =>
  calendarReply(await eventCalendar(req.params.id, req), req.user),
);
