import type { organizerOps } from '../../shared/contracts/organizers';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/getOrganizerBySlug';
import { ok } from '../../shared/http/replies';
import { linkedPostReads } from '../../shared/services/linked';
import { organizerView } from '../../shared/services/linked';

const organizers = linkedPostReads(organizerView);

export const handler = createHandler<typeof organizerOps.getBySlug>(compiled, async (req) =>
  ok(await organizers.get({ slug: req.params.slug }, req)),
);
