import { invalidParam, notFound, slugNotFound } from '../../domain/errors';
import { type Page, type PageRequest, pageOf, sliceOf } from '../../domain/paging';
import { assertReadable, listStatuses, passesStatus } from '../../domain/post-rules';
import type { PostRecord } from '../../domain/records';
import type { User } from '../../domain/roles';
import { storedHtmlText } from '../../domain/html';
import { canSee, seesAll } from '../../domain/visibility';
import { collect } from '../../repositories/unit-of-work';
import { linkedIds, upcomingLinkedIds } from '../../repositories/links';
import {
  getPost,
  getPostBySlug,
  getPostHead,
  getPosts,
  postsNewestFirst,
  statusCounts,
} from '../../repositories/posts';
import type { Infer } from '../../schemas/infer';
import type { venueListQuery } from '../../schemas/venue';
import type { Caller, Ref } from '../common';
import type { LinkedData, LinkedPostView } from './post-type';
import { linkedView } from './post-view';

/** The list query of venues and organizers (the same parameters for both). */
export type LinkedListQuery = Infer<typeof venueListQuery>;
type Flag = LinkedListQuery['has_events'];

const truthy = (f: Flag | undefined) => f === true || f === 'true' || f === '1';

const newer = (a: PostRecord<object>, b: PostRecord<object>) =>
  a.sortDate === b.sortDate ? b.id - a.id : a.sortDate < b.sortDate ? 1 : -1;

/**
 * `search` (reference §7.1): the words are split on anything but letters, digits and `-`; a record
 * matches when one of its fields contains all of them, case-insensitively.
 */
function searcher<D extends LinkedData>(def: LinkedPostView<D>, search: string) {
  const words = search
    .toLowerCase()
    .split(/[^\p{L}\p{N}-]+/u)
    .filter(Boolean);
  return (p: PostRecord<D>) =>
    [p.title, storedHtmlText(p.description), storedHtmlText(p.excerpt), ...def.searchable(p)].some(
      (field) => {
        const text = field?.toLowerCase();
        return !!text && words.every((w) => text.includes(w));
      },
    );
}

/** IDs the `event` and `only_with_upcoming` filters allow; undefined when neither is given. */
async function allowedIds<D extends LinkedData>(
  def: LinkedPostView<D>,
  q: LinkedListQuery,
  user: User | null,
) {
  let ids: Set<number> | undefined;
  if (q.event !== undefined) {
    const event = await getPostHead(q.event);
    if (!event || event.type !== 'event' || event.status === 'trash' || !canSee(event, user))
      throw invalidParam('event', 'event must be the ID of an existing event.', 'rest_unknown_event');
    ids = new Set(await linkedIds(q.event, def.kind));
  }
  if (truthy(q.only_with_upcoming)) {
    const upcoming = await upcomingLinkedIds(def.kind, new Date(), (e) => canSee(e, user));
    ids = ids ? new Set([...ids].filter((id) => upcoming.has(id))) : upcoming;
  }
  return ids;
}

/** The page of the plain newest-first list, reading no further than the page's last record. */
async function plainPage<D extends LinkedData>(
  def: LinkedPostView<D>,
  keep: (p: PostRecord<D>) => boolean,
  total: number,
  { page, perPage }: PageRequest,
): Promise<PostRecord<D>[]> {
  const skip = (page - 1) * perPage;
  const out: PostRecord<D>[] = [];
  if (skip >= total) return out;
  let seen = 0;
  // Queries of the rows up to the page's last (skip < total, so within the type's records), not 1 MB each.
  for await (const p of postsNewestFirst<D>(def.type, skip + perPage)) {
    if (!keep(p) || seen++ < skip) continue;
    out.push(p);
    if (out.length === perPage) break;
  }
  return out;
}

/**
 * GET /venues, /organizers. Without filters the total comes from the status totals and only the
 * records up to the page are read; `event` / `only_with_upcoming` read just the records they name;
 * `search` and `has_events` read the type's records (never the rest of the table).
 */
async function listLinkedPosts<D extends LinkedData>(
  def: LinkedPostView<D>,
  q: LinkedListQuery,
  user: User | null,
): Promise<Page<PostRecord<D>>> {
  const filter = listStatuses(q.status, user);
  const passes = passesStatus(filter);
  const paging = pageOf(q);
  const ids = await allowedIds(def, q, user);
  const hasEvents = q.has_events === undefined ? undefined : truthy(q.has_events);
  const counted = (p: PostRecord<D>) => (seesAll(user) ? p.countAll : p.countPublic) > 0;
  const matches = q.search === undefined ? undefined : searcher(def, q.search);
  const keep = (p: PostRecord<D>) =>
    p.type === def.type &&
    passes(p) &&
    (hasEvents === undefined || counted(p) === hasEvents) &&
    (!matches || matches(p));

  let items: PostRecord<D>[];
  let total: number;
  if (!ids && !matches && hasEvents === undefined && !filter.ownerOfUnpublished) {
    const counts = await statusCounts(def.type);
    total = filter.statuses.reduce((n, s) => n + (counts[s] ?? 0), 0);
    items = await plainPage(def, keep, total, paging);
  } else {
    const candidates = ids
      ? [...(await getPosts<D>([...ids])).values()].sort(newer)
      : await collect(postsNewestFirst<D>(def.type));
    const kept = candidates.filter(keep);
    total = kept.length;
    items = sliceOf(kept, paging);
  }
  return { items, total, paging };
}

/** The reads of a venue-like type: one mechanism for venues and organizers. */
export function linkedPostReads<D extends LinkedData>(def: LinkedPostView<D>) {
  const loose = def;
  return {
    /** GET by ID or slug: the record with json_ld, if the caller may see it. */
    async get(ref: Ref, ctx: Caller) {
      const post = await loadLinked(loose, ref);
      assertReadable(def.type, post, ctx.user);
      return linkedView(def, post, true);
    },

    async list(q: LinkedListQuery, ctx: Caller) {
      const page = await listLinkedPosts(loose, q, ctx.user);
      return { ...page, items: page.items.map((p) => linkedView(def, p, false)) };
    },
  };
}

/** The record a path names; unknown IDs and slugs (and other types' IDs) are not found. */
export async function loadLinked<D extends LinkedData>(
  def: LinkedPostView<D>,
  ref: Ref,
): Promise<PostRecord<D>> {
  const post = 'id' in ref ? await getPost<D>(ref.id) : await getPostBySlug<D>(def.type, ref.slug);
  if (!post || post.type !== def.type)
    throw 'id' in ref ? notFound(def.type, ref.id) : slugNotFound(def.type, ref.slug);
  return post;
}
