import type { ticketOps } from '../../shared/contracts/tickets';
import { createHandler } from '../../shared/http/handler';
import { created } from '../../shared/http/replies';
import * as compiled from '../../shared/schemas/compiled/createTicket';
import * as tickets from '../../shared/services/tickets';

export const handler = createHandler<typeof ticketOps.create>(compiled, async (req) => {
  const ticket = await tickets.createTicket(req.body, req);
  return created(ticket, ticket.rest_url);
});
