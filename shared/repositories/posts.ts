import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createdThenDeleted } from '../domain/errors';
import { fitsKey } from '../domain/key-text';
import type { PostHead, PostRecord, PostType } from '../domain/records';
import { ddb, tableName } from '../db/client';
import { patterns } from '../db/access-patterns';
import { nextId } from '../db/ids';
import { keys, STATUS_SHARDS } from '../db/keys';
import { batchGet, type Item, queryIndex } from '../db/query';
import { commitAll, type PlannedWrite, type WriteItem } from '../db/transact';
import { AlreadyCreated, type CreationKey, creationGuard } from './creations';
import { postChange } from './changes';
import { commitWithSlugs, recordsWithSlugPrefix, type SlugClaim, slugStates } from './slug-claims';

export type { PostHead, PostRecord };

const OWN = [
  'id',
  'type',
  'status',
  'author',
  'slug',
  'title',
  'description',
  'excerpt',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'version',
  'sortDate',
  'sortEnd',
  'countPublic',
  'countAll',
  'tickets',
  'data',
] as const;

export function fromPostItem<D extends object>(item: Item): PostRecord<D> {
  const out: Record<string, unknown> = {};
  for (const k of OWN) if (item[k] !== undefined) out[k] = item[k];
  return out as unknown as PostRecord<D>;
}

/** A record whose permanent delete has begun reads as gone everywhere (its tombstone, `deleting`). */
export const isDeleting = (item: Item) => item.deleting !== undefined;

function indexKeys(p: PostRecord<object>) {
  return {
    ...keys.postSlugIndex(p.type, p.slug),
    ...keys.postDateIndex(p.type, p.sortDate, p.id),
    ...(p.type === 'event' && p.sortEnd ? keys.eventEndIndex(p.sortEnd, p.id) : {}),
    // Undefined keys are left out of a put and removed by an update (postUpdate).
    ...(p.type === 'event' ? keys.featuredIndex(isFeatured(p), p.sortDate, p.id) : {}),
  };
}

const isFeatured = (p: PostRecord<object>) => (p.data as { featured?: boolean }).featured === true;

async function getItem(id: number): Promise<Item | undefined> {
  const out = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: keys.post(id), ConsistentRead: true }),
  );
  return out.Item;
}

export async function getPost<D extends object>(id: number): Promise<PostRecord<D> | undefined> {
  const item = await getItem(id);
  return item && !isDeleting(item) ? fromPostItem<D>(item) : undefined;
}

/** A post whose permanent delete began and did not finish: the delete that resumes it needs it. */
export async function getPostBeingDeleted<D extends object>(id: number): Promise<PostRecord<D> | undefined> {
  const item = await getItem(id);
  return item && isDeleting(item) ? fromPostItem<D>(item) : undefined;
}

export async function getPostHead(id: number): Promise<PostHead | undefined> {
  const out = await ddb.send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.post(id),
      ProjectionExpression: 'id, #t, #s, author, deleting',
      ExpressionAttributeNames: { '#t': 'type', '#s': 'status' },
    }),
  );
  if (!out.Item || isDeleting(out.Item)) return undefined;
  const { deleting: _, ...head } = out.Item;
  return head as PostHead;
}

/** Slug look-up through the slug guard: a strongly consistent read, unlike the slug index. */
export async function getPostBySlug<D extends object>(
  type: PostType,
  slug: string,
  withDeleting = false,
): Promise<PostRecord<D> | undefined> {
  if (!fitsKey(slug)) return undefined;
  const guard = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: keys.slugGuard(type, slug), ConsistentRead: true }),
  );
  if (!guard.Item) return undefined;
  const item = await getItem(Number(guard.Item.id));
  if (!item || (isDeleting(item) && !withDeleting)) return undefined;
  const post = fromPostItem<D>(item);
  return post.type === type ? post : undefined;
}

export async function getPosts<D extends object>(ids: number[]): Promise<Map<number, PostRecord<D>>> {
  const items = await batchGet(ids.map((id) => keys.post(id)));
  const out = new Map<number, PostRecord<D>>();
  for (const item of items.values()) if (!isDeleting(item)) out.set(Number(item.id), fromPostItem<D>(item));
  return out;
}

const addStatus = (type: PostType, adds: Array<[string, number]>, shard: number): WriteItem => ({
  Update: {
    TableName: tableName(),
    Key: keys.statusTotals(type, shard),
    UpdateExpression: `ADD ${adds.map((_, i) => `#s${i} :n${i}`).join(', ')}`,
    ExpressionAttributeNames: Object.fromEntries(adds.map(([s], i) => [`#s${i}`, s])),
    ExpressionAttributeValues: Object.fromEntries(adds.map(([, n], i) => [`:n${i}`, n])),
  },
});

const randomShard = () => Math.floor(Math.random() * STATUS_SHARDS);

/** Per type and status totals, kept in the same transactions as the posts (list totals read them). */
export function statusCount(
  type: PostType,
  from: string | undefined,
  to: string | undefined,
  n = 1,
): PlannedWrite[] {
  if (from === to) return [];
  const adds: Array<[string, number]> = [];
  if (from) adds.push([from, -n]);
  if (to) adds.push([to, n]);
  const shard = randomShard();
  return [
    {
      item: addStatus(type, adds, shard),
      undo: addStatus(
        type,
        adds.map(([s, d]) => [s, -d]),
        shard,
      ),
    },
  ];
}

/** Posts of a type per status: the sum of the status-total shards, read in one round trip. */
export async function statusCounts(type: PostType): Promise<Record<string, number>> {
  const shards = await batchGet(
    Array.from({ length: STATUS_SHARDS }, (_, i) => keys.statusTotals(type, i)),
    true,
  );
  const counts: Record<string, number> = {};
  for (const item of shards.values())
    for (const [k, v] of Object.entries(item)) if (typeof v === 'number') counts[k] = (counts[k] ?? 0) + v;
  return counts;
}

const guard = (type: PostType, slug: string, id: number, claim: number): PlannedWrite => ({
  item: {
    Put: {
      TableName: tableName(),
      Item: { ...keys.slugGuard(type, slug), id },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  },
  onConflict: { claim },
  undo: { Delete: { TableName: tableName(), Key: keys.slugGuard(type, slug) } },
});

/** IDs of the shared post sequence, for records created inside another record's write. */
export const nextPostId = () => nextId('post');

/**
 * The items of a new post with slug claim number `claim` (its record and slug guard; not its status
 * total, which the caller adds once per type so that one transaction touches that item once).
 */
export function newPostWrites(record: PostRecord<object>, claim: number, final = false): PlannedWrite[] {
  return [
    {
      item: {
        Put: {
          TableName: tableName(),
          Item: { ...keys.post(record.id), ...indexKeys(record), ...record },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      undo: { Delete: { TableName: tableName(), Key: keys.post(record.id) } },
      final,
    },
    { ...guard(record.type, record.slug, record.id, claim), final },
    postChange(undefined, record),
    ...scheduleWrites(undefined, record).map((w) => ({ ...w, final })),
  ];
}

type Dated = Pick<PostRecord<object>, 'id' | 'type' | 'status' | 'date_utc'>;
const isScheduled = (p: Dated | undefined): p is Dated => p?.status === 'future';

/**
 * The scheduled mark of a post (keys.scheduled): present while it is `future`, under its due time, so
 * the publish job finds it when its date comes (services/maintenance/scheduled.ts). It changes with the record,
 * in its transaction; a mark left behind (a record deleted another way) the job drops when it is due.
 */
export function scheduleWrites(current: Dated | undefined, next: Dated | undefined): PlannedWrite[] {
  const was = isScheduled(current) ? keys.scheduled(current.date_utc, current.id) : undefined;
  const is = isScheduled(next) ? keys.scheduled(next.date_utc, next.id) : undefined;
  if (was?.sk === is?.sk) return [];
  const out: PlannedWrite[] = [];
  if (was)
    out.push({
      item: { Delete: { TableName: tableName(), Key: was } },
      undo: { Put: { TableName: tableName(), Item: { ...was, ...markOf(current!) } } },
      final: true,
    });
  if (is)
    out.push({
      item: { Put: { TableName: tableName(), Item: { ...is, ...markOf(next!) } } },
      undo: { Delete: { TableName: tableName(), Key: is } },
      final: true,
    });
  return out;
}

const markOf = (p: Dated) => ({ id: p.id, type: p.type, date_utc: p.date_utc });

export type NewPost<D extends object> = Omit<
  PostRecord<D>,
  'id' | 'slug' | 'version' | 'countPublic' | 'countAll'
>;

/** Records (and their slug claims) created in the same write as another one. */
export interface Extra<R> {
  claims: SlugClaim[];
  /** The writes, given the record and the slugs chosen for `claims`. */
  build: (record: R, slugs: string[]) => PlannedWrite[];
}

const noExtra = { claims: [], build: () => [] };

/**
 * Creates a post with the next ID of the shared post sequence and a unique slug; `extra` adds the
 * writes that must land with it (links, counts, the records it creates). With `creation` (a create
 * sent with an Idempotency-Key) it creates at most once: a repeat returns the post created first.
 */
export async function createPost<D extends object>(
  post: NewPost<D>,
  slugBase: string,
  extra: Extra<PostRecord<D>> = noExtra,
  creation?: CreationKey,
  /** An ID drawn before (a series' first occurrence, whose ID names the series). */
  presetId?: number,
): Promise<PostRecord<D>> {
  // With a slug base, its guard and counter are read together with the ID draw (an ID is the base
  // only of a record without one).
  const claimsFrom = (base: string) => [{ scope: { type: post.type }, base }, ...extra.claims];
  const [id, taken] = await Promise.all([
    presetId ?? nextId('post'),
    slugBase ? slugStates(claimsFrom(slugBase)) : undefined,
  ]);
  const base = { ...post, id, version: 1, countPublic: 0, countAll: 0 };
  let record = { ...base, slug: '' } as PostRecord<D>;
  const claims = claimsFrom(slugBase || String(id));
  try {
    await commitWithSlugs(
      claims,
      ([slug, ...others]) => {
        record = { ...base, slug: slug! } as PostRecord<D>;
        return [
          ...newPostWrites(record, 0, true),
          ...statusCount(post.type, undefined, post.status).map((w) => ({ ...w, final: true })),
          ...extra.build(record, others),
          ...creationGuard(creation, id),
        ];
      },
      commitAll,
      taken,
    );
  } catch (e) {
    if (!(e instanceof AlreadyCreated)) throw e;
    const first = await getPost<D>(e.id);
    if (!first) throw createdThenDeleted(post.type, e.id);
    return first;
  }
  return record;
}

/** The full update of a post's own item under its version condition. */
export function postUpdate<D extends object>(
  current: PostRecord<D>,
  record: PostRecord<D>,
  stale: () => Error,
) {
  const set: Record<string, unknown> = { ...indexKeys(record) };
  for (const k of OWN) {
    if (k === 'id' || k === 'type') continue;
    // Counts belong to event writes, an event's ticket count to the ticket writes: they are only
    // written here when the caller changes them.
    if ((k === 'countPublic' || k === 'countAll' || k === 'tickets') && record[k] === current[k]) continue;
    set[k] = record[k];
  }
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':v': current.version };
  const parts: string[] = [];
  const removes: string[] = [];
  for (const [k, v] of Object.entries(set)) {
    names[`#${k}`] = k;
    if (v === undefined) removes.push(`#${k}`);
    else {
      parts.push(`#${k} = :${k}`);
      values[`:${k}`] = v;
    }
  }
  return {
    item: {
      Update: {
        TableName: tableName(),
        Key: keys.post(current.id),
        UpdateExpression: `SET ${parts.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
        ConditionExpression: 'version = :v AND attribute_not_exists(deleting)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
    onConflict: stale,
    final: true,
  } satisfies PlannedWrite;
}

/**
 * Writes the new state of a post (everything but its link counts, which event writes own) if nobody
 * changed it since it was read; `stale` is the error when someone did. A new `slugBase` renames it:
 * exactly to that slug, or a 400 when another record holds it.
 */
export async function updatePost<D extends object>(
  current: PostRecord<D>,
  next: PostRecord<D>,
  stale: () => Error,
  extra: Extra<PostRecord<D>> = noExtra,
  slugBase?: string,
): Promise<PostRecord<D>> {
  const renamed = slugBase !== undefined && slugBase !== current.slug;
  const claims: SlugClaim[] = [
    { scope: { type: current.type }, base: renamed ? slugBase : current.slug, exact: true },
    ...extra.claims,
  ];
  let saved = next;
  await commitWithSlugs(
    claims,
    ([slug, ...others]) => {
      saved = { ...next, slug: slug!, version: current.version + 1 };
      return [
        postUpdate(current, saved, stale),
        postChange(current, saved),
        ...scheduleWrites(current, saved),
        ...statusCount(current.type, current.status, next.status).map((w) => ({ ...w, final: true })),
        ...(renamed
          ? [
              {
                item: { Delete: { TableName: tableName(), Key: keys.slugGuard(current.type, current.slug) } },
                final: true,
              },
              { ...guard(current.type, slug!, current.id, 0), final: true },
            ]
          : []),
        ...extra.build(saved, others),
      ];
    },
    commitAll,
  );
  return saved;
}

/** Deletes a post (one with few links, an event) for good in one write, freeing its slug. */
export async function deletePost(
  current: PostRecord<object>,
  stale: () => Error,
  extra: PlannedWrite[] = [],
): Promise<void> {
  await commitAll([...deletePostWrites(current, stale), ...extra]);
}

/** The items of a post's permanent delete (its record, slug guard, status total and change entry). */
export function deletePostWrites(current: PostRecord<object>, stale: () => Error): PlannedWrite[] {
  return [
    {
      item: {
        Delete: {
          TableName: tableName(),
          Key: keys.post(current.id),
          ConditionExpression: 'version = :v',
          ExpressionAttributeValues: { ':v': current.version },
        },
      },
      onConflict: stale,
      final: true,
    },
    {
      item: { Delete: { TableName: tableName(), Key: keys.slugGuard(current.type, current.slug) } },
      final: true,
    },
    ...statusCount(current.type, current.status, undefined).map((w) => ({ ...w, final: true })),
    postChange(current, undefined),
    ...scheduleWrites(current, undefined),
  ];
}

/**
 * Posts of a type, newest publication first (byStart index, descending), read lazily: `pageSize` items
 * a Query when given (a list page's worth), else as many as 1 MB holds.
 */
export async function* postsNewestFirst<D extends object>(
  type: PostType,
  pageSize?: number,
): AsyncGenerator<PostRecord<D>> {
  for await (const item of queryIndex({ ...patterns.postsNewestFirst.query(type), pageSize }))
    if (!isDeleting(item)) yield fromPostItem<D>(item);
}

/** Posts of a type whose slug starts with `base`: records named like a new one. */
export async function* postsWithSlugPrefix<D extends object>(
  type: PostType,
  base: string,
): AsyncGenerator<PostRecord<D>> {
  for await (const item of recordsWithSlugPrefix({ type }, base))
    if (!isDeleting(item)) yield fromPostItem<D>(item);
}

/** Status totals of several posts of one type created in one write, as one item (with its undo). */
export function statusTotals(type: PostType, created: Array<{ status: string; n: number }>): PlannedWrite[] {
  const adds = created.map(({ status, n }) => [status, n] as [string, number]);
  const shard = randomShard();
  return adds.length === 0
    ? []
    : [
        {
          item: addStatus(type, adds, shard),
          undo: addStatus(
            type,
            adds.map(([s, n]) => [s, -n]),
            shard,
          ),
        },
      ];
}
