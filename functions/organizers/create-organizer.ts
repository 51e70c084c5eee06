import { organizerOps } from '../../shared/contracts/organizers';
import { createHandler } from '../../shared/http/handler';
import * as validators from '../../shared/schemas/compiled/createOrganizer';
import { created } from '../../shared/http/replies';
import { linkedPostWrites } from '../../shared/services/linked-write';
import { organizerType } from '../../shared/services/organizer-input';

const organizers = linkedPostWrites(organizerType);

export const handler = createHandler(organizerOps.create, validators, async (req) => {
  const record = await organizers.create(req.body, req.sent, req);
  return created(record, `${req.root}/organizers/${record.id}`);
});
