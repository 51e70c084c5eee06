import type { importOps } from '../../shared/contracts/imports';
import { createHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/replies';
import * as compiled from '../../shared/schemas/compiled/listImports';
import { listImports } from '../../shared/services/imports';

export const handler = createHandler<typeof importOps.list>(compiled, async (req) =>
  ok(await listImports(req)),
);
