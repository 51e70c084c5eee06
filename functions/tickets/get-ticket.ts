import type { ticketOps } from '../../shared/contracts/tickets';
import { createHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/replies';
import * as compiled from '../../shared/schemas/compiled/getTicket';
import * as tickets from '../../shared/services/tickets';

export const handler = createHandler<typeof ticketOps.get>(compiled, async (req) =>
  ok(await tickets.getTicket(req.params.id, req)),
);
