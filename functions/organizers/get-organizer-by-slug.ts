import { organizerOps } from '../../shared/contracts/organizers';
import { createHandler } from '../../shared/http/handler';
import * as validators from '../../shared/schemas/compiled/getOrganizerBySlug';
import { ok } from '../../shared/http/replies';
import { linkedPostReads } from '../../shared/services/linked-read';
import { organizerView } from '../../shared/services/organizer-type';

const organizers = linkedPostReads(organizerView);

export const handler = createHandler(organizerOps.getBySlug, validators, async (req) =>
  ok(await organizers.get({ slug: req.params.slug }, req)),
);
