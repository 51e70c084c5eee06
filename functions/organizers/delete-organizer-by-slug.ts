import type { organizerOps } from '../../shared/contracts/organizers';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/deleteOrganizerBySlug';
import { ok } from '../../shared/http/replies';
import { linkedPostDeletes } from '../../shared/services/linked';
import { organizerView } from '../../shared/services/linked';

const organizers = linkedPostDeletes(organizerView);

export const handler = createHandler<typeof organizerOps.deleteBySlug>(compiled, async (req) =>
  ok(await organizers.remove({ slug: req.params.slug }, req.query.force ?? false, req)),
);
