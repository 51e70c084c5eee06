import type { attendeeOps } from '../../shared/contracts/tickets';
import { createHandler } from '../../shared/http/handler';
import { listReply } from '../../shared/http/replies';
import * as compiled from '../../shared/schemas/compiled/listAttendees';
import * as tickets from '../../shared/services/tickets';

const SHAPE = { key: 'attendees', pastEnd: 'empty', itemsFirst: false } as const;

export const handler = createHandler<typeof attendeeOps.list>(compiled, async (req) =>
  listReply(await tickets.listAttendees(req.query, req), SHAPE, req.urls),
);
