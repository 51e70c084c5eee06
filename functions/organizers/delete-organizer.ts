import type { organizerOps } from '../../shared/contracts/organizers';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/deleteOrganizer';
import { ok } from '../../shared/http/replies';
import { linkedPostDeletes } from '../../shared/services/linked';
import { organizerView } from '../../shared/services/linked';

const organizers = linkedPostDeletes(organizerView);

export const handler = createHandler<typeof organizerOps.delete>(compiled, async (req) =>
  ok(await organizers.remove({ id: req.params.id }, req.query.force ?? false, req)),
);
