import { changeOps } from '../../shared/contracts/changes';
import { createHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/replies';
import * as validators from '../../shared/schemas/compiled/listChanges';
import { listChanges } from '../../shared/services/change-feed';

export const handler = createHandler(changeOps.list, validators, async (req) =>
  ok(await listChanges(req.query, req)),
);
