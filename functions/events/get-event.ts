import { eventOps } from '../../shared/contracts/events';
import { createHandler } from '../../shared/http/handler';
import * as validators from '../../shared/schemas/compiled/getEvent';
import { ok } from '../../shared/http/replies';
import { getEvent } from '../../shared/services/event-read';

export const handler = createHandler(eventOps.get, validators, async (req) =>
  ok(await getEvent({ id: req.params.id }, req)),
);
