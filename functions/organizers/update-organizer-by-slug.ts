import { organizerOps } from '../../shared/contracts/organizers';
import { createHandler } from '../../shared/http/handler';
import * as validators from '../../shared/schemas/compiled/updateOrganizerBySlug';
import { ok } from '../../shared/http/replies';
import { linkedPostWrites } from '../../shared/services/linked-write';
import { organizerType } from '../../shared/services/organizer-input';

const organizers = linkedPostWrites(organizerType);

export const handler = createHandler(organizerOps.updateBySlug, validators, async (req) =>
  ok(await organizers.update({ slug: req.params.slug }, req.body, req.sent, req)),
);
