import { organizerOps } from '../../shared/contracts/organizers';
import { createHandler } from '../../shared/http/handler';
import { organizers } from '../../shared/services/organizers';

export const handler = createHandler(organizerOps.list, (req) => organizers.list(req.query, req));
