import { nowStamps } from '../domain/clock';
import { trashed } from '../domain/errors';
import { type EventData, type EventRecord, termsRecounted } from '../domain/event-record';
import { assertCanDelete } from '../domain/post-rules';
import { assertMeets } from '../domain/revisions';
import { goneLinkTargets } from '../repositories/events';
import { eventWrites } from '../repositories/event-writes';
import { deletePost, updatePost } from '../repositories/posts';
import { syncTermsInUse } from '../repositories/term-use';
import { type Ref, retryStale, staleError, type Writer } from './context';
import { loadEvent } from './event-read';
import { type EventView, presentEvent } from './event-view';
import { linkedGone, parentsFor } from './event-write-parts';

// Apart from the creates and updates so that the delete function carries no body handling and no
// HTML sanitizer.

/** Moves to the trash (the trashed event; gone when already there); `force` deletes for good. */
export function removeEvent(ref: Ref, force: boolean, ctx: Writer): Promise<EventView> {
  return retryStale(ctx, () => removeOnce(ref, force, ctx));
}

async function removeOnce(ref: Ref, force: boolean, ctx: Writer): Promise<EventView> {
  const current = await loadEvent(ref);
  assertCanDelete(current, ctx.user, force);
  if (!force && current.status === 'trash') throw trashed('event');
  assertMeets(ctx.ifMatch, current, 'event');
  const stale = staleError(ctx, 'event');
  const [gone, parentOf] = await Promise.all([
    goneLinkTargets(current),
    parentsFor(current.data.categories.length > 0),
  ]);
  if (force) {
    const view = await presentEvent(current, ctx);
    await deletePost(current, stale, eventWrites(current, undefined, { gone, linkedGone, parentOf }));
    await syncTermsInUse(termsRecounted(current, undefined));
    return view;
  }
  const next: EventRecord = {
    ...current,
    status: 'trash',
    ...nowStamps(),
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
