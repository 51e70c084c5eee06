import type { organizerOps } from '../../shared/contracts/organizers';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/getOrganizer';
import { ok } from '../../shared/http/replies';
import { linkedPostReads } from '../../shared/services/linked';
import { organizerView } from '../../shared/services/linked';

const organizers = linkedPostReads(organizerView);

export const handler = createHandler<typeof organizerOps.get>(compiled, async (req) =>
  ok(await organizers.get({ id: req.params.id }, req)),
);
