import { organizerOps } from '../../shared/contracts/organizers';
import { createHandler } from '../../shared/http/handler';
import * as validators from '../../shared/schemas/compiled/deleteOrganizer';
import { ok } from '../../shared/http/replies';
import { linkedPostWrites } from '../../shared/services/linked-write';
import { organizerType } from '../../shared/services/organizer-input';

const organizers = linkedPostWrites(organizerType);

export const handler = createHandler(organizerOps.delete, validators, async (req) =>
  ok(await organizers.remove({ id: req.params.id }, req.query.force ?? false, req)),
);
