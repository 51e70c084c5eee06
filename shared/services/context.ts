import { conflict, preconditionFailed, type ResourceType } from '../domain/errors';
import type { Precondition } from '../domain/revisions';
import type { User } from '../domain/roles';
import type { CreationKey } from '../repositories/creations';

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
}

/** A record named by its ID or by its slug. */
export type Ref = { id: number } | { slug: string };

/**
 * The error of a write whose version condition failed (the record was written since it was read):
 * with If-Match the client named that version, so it is a 412; without, a 409 to retry.
 */
export const staleError = (ctx: Writer, type: ResourceType) => () =>
  ctx.ifMatch ? preconditionFailed(type) : conflict(type);
