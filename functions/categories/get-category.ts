import { categoryOps } from '../../shared/contracts/terms';
import { createHandler } from '../../shared/http/handler';
import { categories } from '../../shared/services/terms';

export const handler = createHandler(categoryOps.get, (req) => categories.get(req.params.id, req));
