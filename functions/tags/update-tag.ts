import { tagOps } from '../../shared/contracts/terms';
import { createHandler } from '../../shared/http/handler';
import { tags } from '../../shared/services/terms';

export const handler = createHandler(tagOps.update, (req) =>
  tags.update(req.params.id, req.body, req.sent, req),
);
