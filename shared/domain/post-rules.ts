import { config } from '../config';
import { pagePath } from './page-paths';
import type { PostType } from './records';
import { atLeast, type User } from './roles';
import { forbidden, invalidParam, noLongerAvailable, notAccessible } from './errors';
import { LIVE_STATUSES, STATUSES } from './statuses';
import { seesAll } from './visibility';
import { wallAt } from './wall-time';

const PUBLISHED = new Set(['publish', 'future', 'private']);

/** Authors and above may publish; contributors' publish, future and private become pending. */
export function statusOnWrite(requested: string | undefined, user: User, current?: string): string {
  if (requested === undefined) return current ?? (atLeast(user, 'author') ? 'publish' : 'draft');
  if (PUBLISHED.has(requested) && !atLeast(user, 'author')) return 'pending';
  return requested;
}

/** `Y-m-d H:i:s` in UTC, as `date_utc` is written. */
export const utcWallOf = (at: Date) => wallAt(at.getTime());

/**
 * Scheduling, as WordPress's wp_insert_post does it (decisions §9): `publish` with a publication date
 * still to come is `future`; `future` whose date has come (or was not given: it is now) is `publish`.
 * The publish job turns `future` into `publish` when the date comes (services/maintenance/scheduled.ts).
 */
export function scheduledStatus(status: string, dateUtc: string, now: Date): string {
  const ahead = dateUtc > utcWallOf(now);
  if (status === 'publish' && ahead) return 'future';
  if (status === 'future' && !ahead) return 'publish';
  return status;
}

/** Editors edit everything; authors their own posts; contributors their own unpublished ones. */
export function canEdit(post: { author: string; status: string }, user: User): boolean {
  if (atLeast(user, 'editor')) return true;
  if (post.author !== user.sub) return false;
  return atLeast(user, 'author') || !PUBLISHED.has(post.status);
}

export function assertCanEdit(post: { author: string; status: string }, user: User): void {
  if (!canEdit(post, user)) throw forbidden();
}

/** Permanent deletion (`force`) is for editors and administrators only. */
export function assertCanDelete(post: { author: string; status: string }, user: User, force: boolean): void {
  if (force && !atLeast(user, 'editor')) throw forbidden();
  assertCanEdit(post, user);
}

/** 403s of a single read: trashed records and records the caller may not see. */
export function assertReadable(
  type: PostType,
  post: { author: string; status: string },
  user: User | null,
): void {
  if (post.status === 'trash' && !seesAll(user)) throw noLongerAvailable(type);
  if (post.status === 'trash') return;
  if (post.status === 'publish' || seesAll(user)) return;
  if (user && atLeast(user, 'contributor') && post.author === user.sub) return;
  throw notAccessible(type);
}

export interface StatusFilter {
  statuses: string[];
  /** Set when non-published records are only listed if the caller wrote them. */
  ownerOfUnpublished?: string;
}

/**
 * Which statuses a list shows (reference §4.5): visitors and subscribers only `publish` (asking for
 * anything else is a 400); editors everything but trash by default; contributors and authors their
 * own unpublished records besides published ones.
 */
export function listStatuses(param: string[] | undefined, user: User | null): StatusFilter {
  const canEditAny = atLeast(user, 'contributor');
  if (param !== undefined) {
    const unknown = param.filter((s) => !(STATUSES as readonly string[]).includes(s));
    if (unknown.length > 0)
      throw invalidParam(
        'status',
        `status must be one or more of ${STATUSES.join(', ')}.`,
        'rest_invalid_status',
      );
    if (!canEditAny && param.some((s) => s !== 'publish'))
      throw invalidParam(
        'status',
        'Only published records can be listed without an editing role.',
        'rest_forbidden_status',
      );
  }
  const statuses = param ?? (canEditAny ? [...LIVE_STATUSES] : ['publish']);
  if (!canEditAny || seesAll(user)) return { statuses };
  return { statuses, ownerOfUnpublished: user!.sub };
}

export const passesStatus = (filter: StatusFilter) => (post: { status: string; author: string }) =>
  filter.statuses.includes(post.status) &&
  (post.status === 'publish' || !filter.ownerOfUnpublished || post.author === filter.ownerOfUnpublished);

const siteHost = () => config.siteUrl.replace(/^https?:\/\//, '');

/** `global_id` of reference §3.1: the site's host (and path) plus `?id=`. */
export const globalId = (id: number) => `${siteHost()}?id=${id}`;

/** Public page of a post, from the deployment's SITE_URL. */
export const publicUrl = (type: PostType, slug: string) => `${config.siteUrl}${pagePath(type, slug)}`;

/**
 * The 400 of a `venue` / `organizer` parameter naming IDs that are no record of that type, or one in
 * the trash (`posts`: the records those IDs read as).
 */
export function assertLinkable(
  type: 'venue' | 'organizer',
  ids: number[],
  posts: ReadonlyMap<number, { type: string; status: string }>,
): void {
  const unknown = ids.filter((id) => posts.get(id)?.type !== type || posts.get(id)?.status === 'trash');
  if (unknown.length > 0)
    throw invalidParam(
      type,
      `${type} contains unknown ${type} IDs: ${unknown.join(', ')}.`,
      `rest_unknown_${type}`,
    );
}
