import type { attendeeOps } from '../../shared/contracts/tickets';
import { createHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/replies';
import * as compiled from '../../shared/schemas/compiled/deleteAttendee';
import * as tickets from '../../shared/services/tickets';

export const handler = createHandler<typeof attendeeOps.delete>(compiled, async (req) =>
  ok(await tickets.cancelAttendee(req.params.id, req.query.token, req)),
);
