import type { eventOps } from '../../shared/contracts/events';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/deleteEvent';
import { ok } from '../../shared/http/replies';
import { removeEvent } from '../../shared/services/events/delete';

export const handler = createHandler<typeof eventOps.delete>(compiled, async (req) =>
  ok(await removeEvent({ id: req.params.id }, req.query.force ?? false, req, req.query.scope)),
);
