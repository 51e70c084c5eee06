import { organizerOps } from '../../shared/contracts/organizers';
import { createHandler } from '../../shared/http/handler';
import { organizers } from '../../shared/services/organizers';

export const handler = createHandler(organizerOps.getBySlug, (req) =>
  organizers.get({ slug: req.params.slug }, req),
);
