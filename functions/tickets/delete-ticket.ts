import type { ticketOps } from '../../shared/contracts/tickets';
import { createHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/replies';
import * as compiled from '../../shared/schemas/compiled/deleteTicket';
import * as tickets from '../../shared/services/tickets';

export const handler = createHandler<typeof ticketOps.delete>(compiled, async (req) =>
  ok(await tickets.deleteTicket(req.params.id, req)),
);
