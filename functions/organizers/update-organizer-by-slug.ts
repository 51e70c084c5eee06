import type { organizerOps } from '../../shared/contracts/organizers';
import { createHandler } from '../../shared/http/handler';
import * as compiled from '../../shared/schemas/compiled/updateOrganizerBySlug';
import { ok } from '../../shared/http/replies';
import { linkedPostWrites } from '../../shared/services/linked/write';
import { organizerType } from '../../shared/services/linked/write';

const organizers = linkedPostWrites(organizerType);

export const handler = createHandler<typeof organizerOps.updateBySlug>(compiled, async (req) =>
  ok(await organizers.update({ slug: req.params.slug }, req.body, req.sent, req)),
);
