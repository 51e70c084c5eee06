import { invalidParam } from '../../domain/errors';
import type { LinkField } from '../../domain/event-record';
import { listTerms } from '../../repositories/terms';

/** What the event writes (create, update) and the event delete share. */

export const linkedGone = (field: LinkField) =>
  invalidParam(
    field,
    `A record named in ${field} was deleted while the event was being saved.`,
    'rest_linked_gone',
  );

/**
 * The category taxonomy's parent map, for the subtree tallies of an event with categories (before or
 * after the write); one read of the (small) category taxonomy, none for an event without categories.
 */
export async function parentsFor(needed: boolean): Promise<Map<number, number> | undefined> {
  if (!needed) return undefined;
  return new Map((await listTerms('tribe_events_cat')).map((t) => [t.id, t.parent]));
}
