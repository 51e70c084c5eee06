import { config } from '../../../config';
import {
  actionFor,
  type ChangeAction,
  type ChangeResource,
  changeRestUrl,
  decodeCursor,
  encodeCursor,
  oldestPosition,
  positionAt,
} from '../../../domain/changes';
import { changesAfter } from '../../../repositories/changes';
import type { Caller } from '../../common';

export interface ChangeView {
  resource: ChangeResource;
  id: number;
  action: ChangeAction;
  modified_utc: string;
  rest_url: string;
}

export interface ChangePage {
  changes: ChangeView[];
  next_cursor: string;
  has_more: boolean;
}

/**
 * GET /changes: the caller's view of the change log after `since`, oldest first, from one Query.
 *
 * Entries the caller cannot see before or after are skipped, so a page may hold fewer changes than
 * `per_page` (even none) while `has_more` is true; the cursor still moves past them. Entries younger
 * than the settle delay are not served yet: a write takes its position just before it commits, so a
 * slower writer may still commit an older position for that long, and a cursor must never pass it.
 * Once the caller has read everything settled, the cursor moves to the settled point itself, so an
 * idle feed's cursor stays fresh (it expires only when it points further back than the retention).
 */
export async function listChanges(
  q: { since?: string; per_page?: number },
  ctx: Caller,
  now = Date.now(),
): Promise<ChangePage> {
  const start = q.since !== undefined ? decodeCursor(q.since, now) : oldestPosition(now);
  const settled = positionAt(now - config.changesSettleSeconds * 1000);
  const { entries, more } = await changesAfter(start, q.per_page ?? 100);
  const changes: ChangeView[] = [];
  let position = start;
  let unsettled = false;
  for (const e of entries) {
    if (e.position >= settled) {
      unsettled = true;
      break;
    }
    position = e.position;
    const action = actionFor(e, ctx.user);
    if (action)
      changes.push({
        resource: e.resource,
        id: e.id,
        action,
        modified_utc: e.modified_utc,
        rest_url: changeRestUrl(e.resource, e.id, ctx.root),
      });
  }
  const hasMore = more && !unsettled;
  if (!hasMore && settled > position) position = settled;
  return { changes, next_cursor: encodeCursor(position), has_more: hasMore };
}
