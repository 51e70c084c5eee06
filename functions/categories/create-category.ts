import { categoryOps } from '../../shared/contracts/terms';
import { createHandler } from '../../shared/http/handler';
import { categories } from '../../shared/services/terms';

export const handler = createHandler(categoryOps.create, (req) => categories.create(req.body, req));
