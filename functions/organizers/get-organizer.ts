import { organizerOps } from '../../shared/contracts/organizers';
import { createHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/replies';
import { linkedPostReads } from '../../shared/services/linked-read';
import { organizerType } from '../../shared/services/organizer-type';

const organizers = linkedPostReads(organizerType);

export const handler = createHandler(organizerOps.get, async (req) =>
  ok(await organizers.get({ id: req.params.id }, req)),
);
