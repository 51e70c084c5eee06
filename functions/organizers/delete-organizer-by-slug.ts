import { organizerOps } from '../../shared/contracts/organizers';
import { createHandler } from '../../shared/http/handler';
import { organizers } from '../../shared/services/organizers';

export const handler = createHandler(organizerOps.deleteBySlug, (req) =>
  organizers.remove({ slug: req.params.slug }, req.query.force ?? false, req),
);
