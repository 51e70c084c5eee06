import type { importOps } from '../../shared/contracts/imports';
import { createHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/replies';
import * as compiled from '../../shared/schemas/compiled/deleteImport';
import { deleteImport } from '../../shared/services/imports';

export const handler = createHandler<typeof importOps.delete>(compiled, async (req) =>
  ok(await deleteImport(req.params.id, req)),
);
