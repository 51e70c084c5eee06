import { organizerOps } from '../../shared/contracts/organizers';
import { createHandler } from '../../shared/http/handler';
import { organizers } from '../../shared/services/organizers';

export const handler = createHandler(organizerOps.update, (req) =>
  organizers.update({ id: req.params.id }, req.body, req.sent, req),
);
