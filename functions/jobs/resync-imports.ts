import type { Context } from 'aws-lambda';
import { runDeadline } from '../../shared/domain/import-budget';
import { loadEveryBodyPart } from '../../shared/http/lazy-parts';
import { powertoolsLogger } from '../../shared/http/powertools-logger';
import { SERVICE_NAME } from '../../shared/config';
import { runDueImports } from '../../shared/services/imports';

/**
 * The re-sync of feed imports, deployed (docs/import-export.md): invoked every minute by an EventBridge
 * Scheduler schedule (infra/jobs.ts), it fetches and syncs again each import whose `resync_minutes`
 * have passed, as the local stack's timer does. Not an API operation. An import that fails keeps the
 * failure in its report (GET /imports/{id}) and is tried again after its interval; anything else throws,
 * so the invocation counts as an error (the alarm on the function's Errors).
 */
const log = powertoolsLogger(SERVICE_NAME, { job: 'resyncImports' });

export async function handler(_event?: unknown, context?: Context): Promise<{ ran: number }> {
  await loadEveryBodyPart();
  // A feed that does not finish in the invocation's time stops short of it and is continued later.
  const deadline = runDeadline(context?.getRemainingTimeInMillis?.());
  const ran = await runDueImports(Date.now(), (line) => log.info(`Feed ${line}`), deadline);
  if (ran > 0) log.info('Feed imports re-synced', { ran });
  return { ran };
}
