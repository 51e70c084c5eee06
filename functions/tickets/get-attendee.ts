import type { attendeeOps } from '../../shared/contracts/tickets';
import { createHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/replies';
import * as compiled from '../../shared/schemas/compiled/getAttendee';
import * as tickets from '../../shared/services/tickets';

export const handler = createHandler<typeof attendeeOps.get>(compiled, async (req) =>
  ok(await tickets.getAttendee(req.params.id, req)),
);
