import type { importOps } from '../../shared/contracts/imports';
import { createHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/replies';
import * as compiled from '../../shared/schemas/compiled/getImport';
import { getImportView } from '../../shared/services/imports';

export const handler = createHandler<typeof importOps.get>(compiled, async (req) =>
  ok(await getImportView(req.params.id, req)),
);
