import type { attendeeOps } from '../../shared/contracts/tickets';
import { createHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/replies';
import * as compiled from '../../shared/schemas/compiled/updateAttendee';
import * as tickets from '../../shared/services/tickets';

export const handler = createHandler<typeof attendeeOps.update>(compiled, async (req) =>
  ok(await tickets.checkIn(req.params.id, req.body.check_in, req)),
);
