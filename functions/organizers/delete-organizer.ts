import { organizerOps } from '../../shared/contracts/organizers';
import { createHandler } from '../../shared/http/handler';
import { organizers } from '../../shared/services/organizers';

export const handler = createHandler(organizerOps.delete, (req) =>
  organizers.remove({ id: req.params.id }, req.query.force ?? false, req),
);
