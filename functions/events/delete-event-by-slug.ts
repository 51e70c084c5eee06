import { eventOps } from '../../shared/contracts/events';
import { createHandler } from '../../shared/http/handler';
import * as validators from '../../shared/schemas/compiled/deleteEventBySlug';
import { ok } from '../../shared/http/replies';
import { removeEvent } from '../../shared/services/event-delete';

export const handler = createHandler(eventOps.deleteBySlug, validators, async (req) =>
  ok(await removeEvent({ slug: req.params.slug }, req.query.force ?? false, req)),
);
