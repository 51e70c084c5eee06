import { organizerOps } from '../../shared/contracts/organizers';
import { createHandler } from '../../shared/http/handler';
import { organizers } from '../../shared/services/organizers';

export const handler = createHandler(organizerOps.create, (req) =>
  organizers.create(req.body, req.sent, req),
);
