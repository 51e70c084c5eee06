import { eventOps } from '../../shared/contracts/events';
import { createHandler } from '../../shared/http/handler';
import { events } from '../../shared/services/events';

export const handler = createHandler(eventOps.getBySlug, (req) => events.get({ slug: req.params.slug }, req));
