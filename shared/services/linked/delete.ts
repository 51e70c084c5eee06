import { nowStamps } from '../../domain/clock';
import { trashed } from '../../domain/errors';
import { assertCanDelete } from '../../domain/post-rules';
import type { PostRecord } from '../../domain/records';
import { assertMeets } from '../../domain/revisions';
import { finishDelete, markDeleting } from '../../repositories/deletes';
import { getPostBeingDeleted, getPostBySlug, updatePost } from '../../repositories/posts';
import { type Ref, retryStale, staleError, type Writer } from '../common';
import { loadLinked } from './read';
import type { LinkedData, LinkedPostView } from './post-type';
import { linkedView } from './post-view';

/**
 * Trash and permanent delete of a venue-like type. Apart from the other writes so that the delete
 * functions need only the type's view: no body handling, no HTML sanitizer in their bundles.
 */
export function linkedPostDeletes<D extends LinkedData>(def: LinkedPostView<D>) {
  /** The record to delete for good: a live one, or one whose interrupted delete this request finishes. */
  async function loadForDelete(ref: Ref): Promise<{ post: PostRecord<D>; resumed: boolean }> {
    try {
      return { post: await loadLinked(def, ref), resumed: false };
    } catch (e) {
      const post =
        'id' in ref ? await getPostBeingDeleted<D>(ref.id) : await getPostBySlug<D>(def.type, ref.slug, true);
      if (!post || post.type !== def.type) throw e;
      return { post, resumed: true };
    }
  }

  async function removeOnce(ref: Ref, force: boolean, ctx: Writer) {
    if (force) {
      const { post, resumed } = await loadForDelete(ref);
      assertCanDelete(post, ctx.user, force);
      // A delete that resumes was decided (and its version raised) by the request that began it.
      if (!resumed) assertMeets(ctx.ifMatch, post, def.type);
      const stale = staleError(ctx, def.type);
      const body = linkedView(def, post, false);
      const target = { kind: def.kind, record: post };
      const now = new Date().toISOString();
      if (!resumed) await markDeleting(target, now, stale);
      await finishDelete(target, now);
      return body;
    }
    const current = await loadLinked(def, ref);
    assertCanDelete(current, ctx.user, force);
    if (current.status === 'trash') throw trashed(def.type);
    assertMeets(ctx.ifMatch, current, def.type);
    const stale = staleError(ctx, def.type);
    const next = { ...current, status: 'trash', ...nowStamps() };
    return linkedView(def, await updatePost<D>(current, next, stale), false);
  }

  return {
    /**
     * Moves to the trash, keeping its links (the trashed record; gone when already there); `force`
     * deletes for good, whatever the number of linked events (repositories/deletes.ts).
     */
    remove(ref: Ref, force: boolean, ctx: Writer) {
      return retryStale(ctx, () => removeOnce(ref, force, ctx));
    },
  };
}
