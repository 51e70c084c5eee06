import { keys } from '../db/keys';
import { collect, queryItems } from '../db/query';
import { TABLE } from '../db/table';
import type { User } from '../http/auth';
import { invalidParam } from '../http/errors';
import { listReply, type PageRequest, pageOf, sliceOf } from '../http/paging';
import type { Reply } from '../http/respond';
import type { ApiUrls } from '../http/urls';
import { linkedIds, upcomingLinkedIds } from '../repositories/links';
import { fromPostItem, getPostHead, getPosts, type PostRecord, statusCounts } from '../repositories/posts';
import type { LinkedData, LinkedPostType } from './linked-post-type';
import { linkedView } from './linked-post-view';
import { listStatuses, passesStatus } from './post-rules';
import { plainText } from './text';
import { canSee, seesAll } from './visibility';

type Flag = boolean | 'true' | 'false' | '1' | '0';

export interface LinkedListQuery {
  page?: number;
  per_page?: number;
  search?: string;
  event?: number;
  has_events?: Flag;
  only_with_upcoming?: Flag;
  status?: string[];
}

const truthy = (f: Flag | undefined) => f === true || f === 'true' || f === '1';

/** Records of a type, newest publication first (byStart index, descending), read lazily. */
async function* newestFirst<D extends LinkedData>(
  type: LinkedPostType<D>['type'],
): AsyncGenerator<PostRecord<D>> {
  const ix = TABLE.indexes.byStart;
  for await (const item of queryItems({
    IndexName: ix.name,
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': ix.partitionKey },
    ExpressionAttributeValues: { ':pk': keys.typePartition(type) },
    ScanIndexForward: false,
  }))
    yield fromPostItem<D>(item);
}

const newer = (a: PostRecord<object>, b: PostRecord<object>) =>
  a.sortDate === b.sortDate ? b.id - a.id : a.sortDate < b.sortDate ? 1 : -1;

/**
 * `search` (reference §7.1): the words are split on anything but letters, digits and `-`; a record
 * matches when one of its fields contains all of them, case-insensitively.
 */
function searcher<D extends LinkedData>(def: LinkedPostType<D>, search: string) {
  const words = search
    .toLowerCase()
    .split(/[^\p{L}\p{N}-]+/u)
    .filter(Boolean);
  return (p: PostRecord<D>) =>
    [p.title, plainText(p.description), plainText(p.excerpt), ...def.searchable(p)].some((field) => {
      const text = field?.toLowerCase();
      return !!text && words.every((w) => text.includes(w));
    });
}

/** IDs the `event` and `only_with_upcoming` filters allow; undefined when neither is given. */
async function allowedIds<D extends LinkedData>(
  def: LinkedPostType<D>,
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
  def: LinkedPostType<D>,
  keep: (p: PostRecord<D>) => boolean,
  total: number,
  { page, perPage }: PageRequest,
): Promise<PostRecord<D>[]> {
  const skip = (page - 1) * perPage;
  const out: PostRecord<D>[] = [];
  if (skip >= total) return out;
  let seen = 0;
  for await (const p of newestFirst<D>(def.type)) {
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
export async function listLinkedPosts<D extends LinkedData>(
  def: LinkedPostType<D>,
  q: LinkedListQuery,
  { user, urls }: { user: User | null; urls: ApiUrls },
): Promise<Reply> {
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
      : await collect(newestFirst<D>(def.type));
    const kept = candidates.filter(keep);
    total = kept.length;
    items = sliceOf(kept, paging);
  }
  return listReply({
    key: def.collection,
    items: items.map((p) => linkedView(def, p, false)),
    total,
    paging,
    urls,
    pastEnd: def.type,
    itemsFirst: true,
  });
}
