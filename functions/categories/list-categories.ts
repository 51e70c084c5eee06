import { categoryOps } from '../../shared/contracts/terms';
import { createHandler } from '../../shared/http/handler';
import { categories } from '../../shared/services/terms';

export const handler = createHandler(categoryOps.list, (req) => categories.list(req.query, req));
