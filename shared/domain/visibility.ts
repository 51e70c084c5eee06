import { atLeast, type User } from './roles';

/** Anonymous callers see published records only; editors see everything; others also their own. */
export function canSee(post: { status: string; author: string }, user: User | null): boolean {
  if (post.status === 'publish') return true;
  if (!user) return false;
  if (atLeast(user, 'editor')) return true;
  return atLeast(user, 'contributor') && post.author === user.sub;
}

/** Editors and administrators count and list every status. */
export const seesAll = (user: User | null) => atLeast(user, 'editor');

/**
 * Whether a venue or organizer shows inside an event the caller reads: trashed ones only to those who
 * may see trash (they keep their links while trashed, decisions §6), others as `canSee` says.
 */
export const canSeeLinked = (post: { status: string; author: string }, user: User | null): boolean =>
  post.status === 'trash' ? seesAll(user) : canSee(post, user);
