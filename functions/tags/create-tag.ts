import { tagOps } from '../../shared/contracts/terms';
import { createHandler } from '../../shared/http/handler';
import { tags } from '../../shared/services/terms';

export const handler = createHandler(tagOps.create, (req) => tags.create(req.body, req));
