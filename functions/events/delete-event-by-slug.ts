import type { eventOps } from '../../shared/contracts/events';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/deleteEventBySlug';
import { ok } from '../../shared/http/replies';
import { removeEvent } from '../../shared/services/events/delete';

export const handler = createHandler<typeof eventOps.deleteBySlug>(compiled, async (req) =>
  ok(await removeEvent({ slug: req.params.slug }, req.query.force ?? false, req, req.query.scope)),
);
