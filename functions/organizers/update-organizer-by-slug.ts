import { organizerOps } from '../../shared/contracts/organizers';
import { createHandler } from '../../shared/http/handler';
import { organizers } from '../../shared/services/organizers';

export const handler = createHandler(organizerOps.updateBySlug, (req) =>
  organizers.update({ slug: req.params.slug }, req.body, req.sent, req),
);
