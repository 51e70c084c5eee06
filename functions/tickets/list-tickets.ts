import type { ticketOps } from '../../shared/contracts/tickets';
import { createHandler } from '../../shared/http/handler';
import { listReply } from '../../shared/http/replies';
import * as compiled from '../../shared/schemas/compiled/listTickets';
import * as tickets from '../../shared/services/tickets';

const SHAPE = { key: 'tickets', pastEnd: 'empty', itemsFirst: false } as const;

export const handler = createHandler<typeof ticketOps.list>(compiled, async (req) =>
  listReply(await tickets.listTickets(req.query, req), SHAPE, req.urls),
);
