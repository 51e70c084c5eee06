import type { importOps } from '../../shared/contracts/imports';
import { createHandler } from '../../shared/http/handler';
import { loadEveryBodyPart } from '../../shared/http/lazy-parts';
import { accepted, ok } from '../../shared/http/replies';
import * as compiled from '../../shared/schemas/compiled/updateImport';
import { updateImport } from '../../shared/services/imports';

export const handler = createHandler<typeof importOps.update>(compiled, async (req) => {
  // A feed import runs again after its change: its events carry markup and URLs.
  await loadEveryBodyPart();
  const changed = await updateImport(req.params.id, req.body, req);
  // A run left to the job: 202 with its progress.
  return changed.progress ? accepted(changed) : ok(changed);
});
