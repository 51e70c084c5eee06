import { config, NAMESPACE_PATH } from '../../config';
import { DomainError } from '../../domain/errors';
import { utcWallOf } from '../../domain/post-rules';
import type { User } from '../../domain/roles';
import { getPost } from '../../repositories/posts';
import { dropScheduled, dueScheduled, type ScheduledMark } from '../../repositories/scheduled';
import type { Writer } from '../common';

/**
 * Scheduled publication (decisions §9): a `future` post becomes `publish` when its date comes. Every
 * minute (the publishScheduled job deployed, a timer locally) the due marks are read in one Query and
 * each post is published through the API's own write path, so its lists, counts, tallies, pages and
 * feeds change then, and the change feed gets its entry and webhooks fire at that moment.
 */

/** Who publishes: the system, with the rights to publish anyone's record (the author stays as it was). */
const SCHEDULER: User = { sub: 'scheduler', role: 'administrator' };

export interface PublishRun {
  due: number;
  published: number;
  /** Marks whose post changed another way (deleted, rescheduled, published): dropped. */
  dropped: number;
  /** Writes that failed: logged, the mark stays and the next run tries again. */
  failed: number;
}

const body = { status: 'publish' } as const;
const sent = new Set(['status']);

/** Publishes one due post, as an update of its status that holds only on the version read. */
async function publish(mark: ScheduledMark, ctx: Writer): Promise<void> {
  if (mark.type === 'event') {
    const { updateEvent } = await import('../events/write');
    // One occurrence of a series is published on its own: each has its own mark.
    const post = await getPost<{ series?: unknown }>(mark.id);
    await updateEvent({ id: mark.id }, body, sent, ctx, post?.data.series ? 'this' : undefined);
    return;
  }
  const { linkedPostWrites } = await import('../linked/write');
  const def =
    mark.type === 'venue'
      ? (await import('../linked/write')).venueType
      : (await import('../linked/write')).organizerType;
  await linkedPostWrites(def as never).update({ id: mark.id }, body as never, sent, ctx);
}

export async function publishDue(
  now = new Date(),
  log: (line: string) => void = () => {},
): Promise<PublishRun> {
  const due = await dueScheduled(utcWallOf(now));
  const run: PublishRun = { due: due.length, published: 0, dropped: 0, failed: 0 };
  const root = `${config.apiBaseUrl ?? config.siteUrl}${NAMESPACE_PATH}`;
  for (const mark of due) {
    const post = await getPost(mark.id);
    if (!post || post.type !== mark.type || post.status !== 'future' || post.date_utc !== mark.date_utc) {
      await dropScheduled(mark);
      run.dropped++;
      continue;
    }
    // If-Match on the version read: a write in between wins, and the next run looks again.
    const ctx: Writer = {
      user: SCHEDULER,
      root,
      ifMatch: { any: false, revisions: [{ id: post.id, version: post.version }] },
    };
    try {
      await publish(mark, ctx);
      run.published++;
    } catch (e) {
      run.failed++;
      const what = e instanceof DomainError ? e.code : (e as Error).message;
      log(`${mark.type} ${mark.id} could not be published (${what}); the next run tries again.`);
    }
  }
  return run;
}
