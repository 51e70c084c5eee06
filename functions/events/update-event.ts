import type { eventOps } from '../../shared/contracts/events';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/updateEvent';
import { ok } from '../../shared/http/replies';
import { updateEvent } from '../../shared/services/event-write';

export const handler = createHandler<typeof eventOps.update>(compiled, async (req) =>
  ok(await updateEvent({ id: req.params.id }, req.body, req.sent, req, req.query.scope)),
);
