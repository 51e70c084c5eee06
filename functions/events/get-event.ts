import type { eventOps } from '../../shared/contracts/events';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/getEvent';
import { ok } from '../../shared/http/replies';
import { getEvent } from '../../shared/services/events';

export const handler = createHandler<typeof eventOps.get>(compiled, async (req) =>
  ok(await getEvent({ id: req.params.id }, req)),
);
