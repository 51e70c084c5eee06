import { conflict, DomainError, preconditionFailed, type ResourceType } from '../../domain/errors';
import type { Precondition } from '../../domain/revisions';
import type { User } from '../../domain/roles';
import type { CreationKey } from '../../repositories/creations';

/** Who is asking, and the API root their URLs are built from (`https://host/cal/events/v1`). */
export interface Caller {
  user: User | null;
  root: string;
}

/** A caller of a write: writes always have an authenticated user. */
export interface Writer extends Caller {
  user: User;
  /** The request's `If-Match`: updates and deletes go ahead only on the version it names (else 412). */
  ifMatch?: Precondition;
  /** A create sent with an Idempotency-Key: it creates at most once (repositories/creations.ts). */
  creation?: CreationKey;
  /** The function's context, when the write runs in one: its time left bounds the retries. */
  context?: { getRemainingTimeInMillis?: () => number };
}

/** A record named by its ID or by its slug. */
export type Ref = { id: number } | { slug: string };

/**
 * The error of a write whose version condition failed (the record was written since it was read):
 * with If-Match the client named that version, so it is a 412; without, a 409 to retry.
 */
export const staleError = (ctx: Writer, type: ResourceType) => () =>
  ctx.ifMatch ? preconditionFailed(type) : conflict(type);

/** How long a read-modify-write keeps retrying a lost version race, at most. */
const STALE_RETRY_MS = 6000;
/** Time kept for the last attempt and the answer: in a function, retries stop this far before its end. */
const LAST_ATTEMPT_MS = 3000;

/**
 * Runs an update or delete again, from a fresh read, when another request wrote the record between
 * its read and its write. Without If-Match the client asked for "these fields on whatever is there",
 * so a lost race is ours to retry rather than a 409 for the client; with If-Match it named a version,
 * and a change since is its 412. Past the time budget the 409 stands (nothing was written).
 */
export async function retryStale<T>(ctx: Writer, attempt: () => Promise<T>): Promise<T> {
  // At most 6 s, and never into the last 3 s of the function (the retry must still be answered).
  const left = ctx.context?.getRemainingTimeInMillis?.();
  const until = Date.now() + Math.min(STALE_RETRY_MS, left === undefined ? Infinity : left - LAST_ATTEMPT_MS);
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (e) {
      // A busy series is the client's to send again: its own write may run for seconds yet.
      const lost = e instanceof DomainError && e.kind === 'conflict' && e.code !== 'rest_series_busy';
      if (!lost || ctx.ifMatch || Date.now() > until) throw e;
      await new Promise((ok) => setTimeout(ok, Math.random() * Math.min(1000, 20 * 2 ** n)));
    }
  }
}
