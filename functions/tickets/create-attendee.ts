import type { attendeeOps } from '../../shared/contracts/tickets';
import { createHandler } from '../../shared/http/handler';
import { created } from '../../shared/http/replies';
import * as compiled from '../../shared/schemas/compiled/createAttendee';
import * as tickets from '../../shared/services/tickets';

export const handler = createHandler<typeof attendeeOps.create>(compiled, async (req) => {
  const attendee = await tickets.register(req.body, req);
  return created(attendee, attendee.rest_url);
});
