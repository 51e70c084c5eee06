import { nowStamps } from '../../../domain/clock';
import { invalidParam } from '../../../domain/errors';
import { scheduledStatus, statusOnWrite } from '../../../domain/post-rules';
import { publishedAt } from '../../../domain/published-at';
import type { PostRecord } from '../../../domain/records';
import { atLeast, type User } from '../../../domain/roles';
import { slugify } from '../../../domain/slugs';
import { plainText, safeHtml } from '../../../domain/text';
import { imageUrl } from '../../../domain/web-input';
import type { Body, LinkedData, LinkedPostType } from '..';
import { nextOptional } from '..';

export interface NextState<D extends LinkedData> {
  record: PostRecord<D>;
  /** Slug to claim: on create, and on updates that send `slug`. */
  slugBase?: string;
}

/**
 * The venue or organizer a create (no `current`) or partial update produces (decisions §6): only
 * the sent fields change, `null` / `""` clear optional ones, and every 400 is thrown before anything
 * is written. A body that sends a date needs its parser loaded first (shared/http/lazy-parts.ts).
 */
export function nextState<D extends LinkedData, B extends object>(
  def: LinkedPostType<D, B>,
  typed: B,
  sent: Set<string>,
  user: User,
  current?: PostRecord<D>,
): NextState<D> {
  const body = typed as Body;
  const has = (k: string) => sent.has(k) && body[k] !== undefined && body[k] !== null;
  if (has('author') && !atLeast(user, 'editor'))
    throw invalidParam(
      'author',
      'author can only be set by editors and administrators.',
      'rest_cannot_set_author',
    );
  let title = current?.title ?? '';
  if (has(def.type) || !current) {
    title = plainText(String(body[def.type] ?? ''));
    if (!title)
      throw invalidParam(def.type, `${def.type} must contain text once HTML is removed.`, 'rest_too_short');
  }
  const now = new Date();
  // A publication date cannot be cleared: "" leaves it as it is.
  const dates =
    (has('date') && body.date !== '') || (has('date_utc') && body.date_utc !== '') || !current
      ? publishedAt(body, now)
      : { date: current.date, date_utc: current.date_utc };
  const image = nextOptional(body, sent, 'image', current?.data.image, (v) =>
    imageUrl('image', v as string | number),
  );
  const data = { ...def.data(typed, sent, current?.data), ...(image ? { image } : {}) } as D;
  if (!image) delete data.image;
  const record: PostRecord<D> = {
    ...(current ?? { id: 0, slug: '', version: 0, countPublic: 0, countAll: 0, excerpt: '' }),
    type: def.type,
    status: scheduledStatus(
      statusOnWrite(has('status') ? String(body.status) : undefined, user, current?.status),
      dates.date_utc,
      now,
    ),
    author: has('author') ? String(body.author) : (current?.author ?? user.sub),
    title,
    description:
      nextOptional(body, sent, 'description', current?.description, (v) =>
        safeHtml(String(v), { embeds: atLeast(user, 'editor') }),
      ) ?? '',
    ...dates,
    ...nowStamps(now),
    sortDate: dates.date_utc,
    data,
  };
  let slugBase = current ? undefined : slugify(title);
  if (has('slug')) {
    slugBase = slugify(String(body.slug));
    if (!slugBase)
      throw invalidParam('slug', 'slug must contain at least one letter or digit.', 'rest_invalid_slug');
  }
  return { record, slugBase };
}
