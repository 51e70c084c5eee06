import type { organizerOps } from '../../shared/contracts/organizers';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/updateOrganizer';
import { ok } from '../../shared/http/replies';
import { linkedPostWrites } from '../../shared/services/linked/write';
import { organizerType } from '../../shared/services/linked/write';

const organizers = linkedPostWrites(organizerType);

export const handler = createHandler<typeof organizerOps.update>(compiled, async (req) =>
  ok(await organizers.update({ id: req.params.id }, req.body, req.sent, req)),
);
