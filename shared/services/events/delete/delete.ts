import { ticketState } from '../../../domain/changes';
import { nowStamps } from '../../../domain/clock';
import { conflict, invalidParam } from '../../../domain/errors';
import { trashed } from '../../../domain/errors';
import { type EventData, type EventRecord, termsRecounted } from '../../../domain/event-record';
import { assertCanDelete } from '../../../domain/post-rules';
import { assertMeets } from '../../../domain/revisions';
import { goneLinkTargets } from '../../../repositories/events';
import { eventWrites } from '../../../repositories/event-writes';
import { deletePost, updatePost } from '../../../repositories/posts';
import { leaveSeries } from '../../../repositories/series';
import { syncTermsInUse } from '../../../repositories/term-use';
import { ticketRemoval } from '../../../repositories/ticket-removal';
import { type Ref, retryStale, staleError, type Writer } from '../../common';
import { loadEvent } from '..';
import { type EventView, presentEvent } from '..';
import { linkedGone, parentsFor } from '..';
import type { Scope } from '../../series';

// Apart from the creates and updates so that the delete function carries no body handling and no
// HTML sanitizer.

/**
 * The answer of a delete: the event as it was (trashed) and, for a permanent delete, how many of its
 * attendees went with it (docs/tickets.md, "Deleting an event").
 */
export type RemovedEvent = EventView & { attendees_deleted?: number };

/**
 * Moves to the trash (the trashed event; gone when already there); `force` deletes for good, with the
 * event's tickets, attendees and their mails (a trashed event keeps them). An occurrence of a series
 * takes a scope (docs/recurrence.md): `this` (the default) cancels only it, restorable by an update of
 * its status; `following` and `all` reach the others too.
 */
export function removeEvent(ref: Ref, force: boolean, ctx: Writer, scope?: Scope): Promise<RemovedEvent> {
  return retryStale(ctx, () => removeOnce(ref, force, ctx, scope));
}

async function removeOnce(ref: Ref, force: boolean, ctx: Writer, scope?: Scope): Promise<RemovedEvent> {
  const current = await loadEvent(ref);
  const occurrence = current.data.series;
  if (!occurrence && scope !== undefined)
    throw invalidParam(
      'scope',
      'scope applies to an occurrence of a series; this event is a single event.',
      'rest_invalid_param',
    );
  if (occurrence && (scope === 'all' || scope === 'following'))
    return (await import('../../series')).removeSeriesPart(ref, current, force, scope, ctx);
  assertCanDelete(current, ctx.user, force);
  if (!force && current.status === 'trash') throw trashed('event');
  assertMeets(ctx.ifMatch, current, 'event');
  const stale = staleError(ctx, 'event');
  const [gone, parentOf] = await Promise.all([
    goneLinkTargets(current),
    parentsFor(current.data.categories.length > 0),
  ]);
  if (force) {
    // A registration racing the delete fails the delete's last step (the tickets' condition): the
    // whole write is undone and tried again (retryStale), with the attendees read anew.
    const [view, tickets] = await Promise.all([
      presentEvent(current, ctx),
      ticketRemoval(current.id, ticketState(current), () => conflict('event')),
    ]);
    await deletePost(current, stale, [
      ...eventWrites(current, undefined, { gone, linkedGone, parentOf }),
      ...(occurrence ? [leaveSeries(occurrence.id, current.id)] : []),
      ...tickets.writes,
    ]);
    await syncTermsInUse(termsRecounted(current, undefined));
    return { ...view, attendees_deleted: tickets.attendees };
  }
  const next: EventRecord = {
    ...current,
    status: 'trash',
    ...nowStamps(),
  };
  // A cancelled occurrence keeps its status when the whole series changes, until it is restored.
  if (occurrence)
    next.data = {
      ...current.data,
      series: { ...occurrence, edited: [...new Set([...occurrence.edited, 'status'])].sort() },
    };
  const saved = await updatePost<EventData>(current, next, stale, {
    claims: [],
    build: (rec) => eventWrites(current, rec as EventRecord, { gone, linkedGone, parentOf }),
  });
  const [view] = await Promise.all([
    presentEvent(saved as EventRecord, ctx),
    syncTermsInUse(termsRecounted(current, saved as EventRecord)),
  ]);
  return view;
}
