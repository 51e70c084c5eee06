import type { eventOps } from '../../shared/contracts/events';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/getEventBySlug';
import { ok } from '../../shared/http/replies';
import { getEvent } from '../../shared/services/events';

export const handler = createHandler<typeof eventOps.getBySlug>(compiled, async (req) =>
  ok(await getEvent({ slug: req.params.slug }, req)),
);
