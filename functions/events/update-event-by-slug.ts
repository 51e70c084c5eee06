import { eventOps } from '../../shared/contracts/events';
import { createHandler } from '../../shared/http/handler';
import * as validators from '../../shared/schemas/compiled/updateEventBySlug';
import { ok } from '../../shared/http/replies';
import { updateEvent } from '../../shared/services/event-write';

export const handler = createHandler(eventOps.updateBySlug, validators, async (req) =>
  ok(await updateEvent({ slug: req.params.slug }, req.body, req.sent, req)),
);
