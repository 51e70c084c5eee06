import { categoryOps } from '../../shared/contracts/terms';
import { createHandler } from '../../shared/http/handler';
import { categories } from '../../shared/services/terms';

export const handler = createHandler(categoryOps.update, (req) =>
  categories.update(req.params.id, req.body, req.sent, req),
);
