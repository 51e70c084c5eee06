import { preconditionFailed, type ResourceType } from './errors';

/**
 * Which stored state of a record a response shows: its ID and version (every write of the record
 * raises the version under a condition on the one it read). Entity tags are built from it, so that an
 * `If-Match` can be checked against the version the write is conditioned on, atomically.
 */
export interface Revision {
  id: number;
  version: number;
}

/**
 * The revision behind each view object, kept beside the view rather than in it (the body's keys are
 * the contract's). Views are fresh objects per response, so a WeakMap holds them no longer than that.
 */
const revisions = new WeakMap<object, Revision>();

/** Marks `view` as showing `record` at its current version; returns the view. */
export function withRevision<V extends object>(view: V, record: Revision): V {
  revisions.set(view, { id: record.id, version: record.version });
  return view;
}

export function revisionOf(view: unknown): Revision | undefined {
  return typeof view === 'object' && view !== null ? revisions.get(view) : undefined;
}

/**
 * An `If-Match` precondition: `*` (any current record), or the revisions named by the entity tags the
 * client sent (tags that name none, weak ones included, can never match).
 */
export type Precondition = { any: true } | { any: false; revisions: Revision[] };

/** Whether a write may go ahead on `current`; no precondition always may. */
export function meets(precondition: Precondition | undefined, current: Revision): boolean {
  if (!precondition || precondition.any) return true;
  return precondition.revisions.some((r) => r.id === current.id && r.version === current.version);
}

/** Throws 412 when the client's `If-Match` names another revision than the stored one. */
export function assertMeets(
  precondition: Precondition | undefined,
  current: Revision,
  type: ResourceType,
): void {
  if (!meets(precondition, current)) throw preconditionFailed(type);
}
