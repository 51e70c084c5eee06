import type { importOps } from '../../shared/contracts/imports';
import { createHandler, type SuccessBody } from '../../shared/http/handler';
import { idempotent } from '../../shared/http/idempotency';
import { loadEveryBodyPart } from '../../shared/http/lazy-parts';
import { accepted, created, ok } from '../../shared/http/replies';
import * as compiled from '../../shared/schemas/compiled/createImport';
import { createImport } from '../../shared/services/imports';

type Op = typeof importOps.create;

// Sent with an Idempotency-Key, the import is made at most once (shared/http/idempotency.ts).
export const handler = createHandler<Op>(
  compiled,
  idempotent<Op, SuccessBody<Op>>(compiled.operation, async (req) => {
    // The feed's (or the CSV's) events carry markup and URLs the request body did not show.
    await loadEveryBodyPart();
    const made = await createImport(req.body, req.query, req);
    // A dry run made nothing: its report, with 200. A run left to the job: 202 with its progress.
    if ('dry_run' in made) return ok(made);
    return made.progress ? accepted(made) : created(made, made.rest_url);
  }),
);
