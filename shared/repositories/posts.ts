import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { PostHead, PostRecord, PostType } from '../domain/records';
import { ddb, tableName } from '../db/client';
import { nextId } from '../db/ids';
import { keys } from '../db/keys';
import { batchGet, type Item, queryIndex } from '../db/query';
import { commit, type Write } from '../db/transact';
import { commitWithUniqueSlug, recordsWithSlugPrefix } from './slug-claims';

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
  'data',
] as const;

export function fromPostItem<D extends object>(item: Item): PostRecord<D> {
  const out: Record<string, unknown> = {};
  for (const k of OWN) if (item[k] !== undefined) out[k] = item[k];
  return out as unknown as PostRecord<D>;
}

function indexKeys(p: PostRecord<object>) {
  return {
    ...keys.postSlugIndex(p.type, p.slug),
    ...keys.postDateIndex(p.type, p.sortDate, p.id),
    ...(p.type === 'event' && p.sortEnd ? keys.eventEndIndex(p.sortEnd, p.id) : {}),
  };
}

export async function getPost<D extends object>(id: number): Promise<PostRecord<D> | undefined> {
  const out = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: keys.post(id), ConsistentRead: true }),
  );
  return out.Item ? fromPostItem<D>(out.Item) : undefined;
}

export async function getPostHead(id: number): Promise<PostHead | undefined> {
  const out = await ddb.send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.post(id),
      ProjectionExpression: 'id, #t, #s, author',
      ExpressionAttributeNames: { '#t': 'type', '#s': 'status' },
    }),
  );
  return out.Item as PostHead | undefined;
}

/** Slug look-up through the slug guard: a strongly consistent read, unlike the slug index. */
export async function getPostBySlug<D extends object>(
  type: PostType,
  slug: string,
): Promise<PostRecord<D> | undefined> {
  const guard = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: keys.slugGuard(type, slug), ConsistentRead: true }),
  );
  if (!guard.Item) return undefined;
  const post = await getPost<D>(Number(guard.Item.id));
  return post?.type === type ? post : undefined;
}

export async function getPosts<D extends object>(ids: number[]): Promise<Map<number, PostRecord<D>>> {
  const items = await batchGet(ids.map((id) => keys.post(id)));
  const out = new Map<number, PostRecord<D>>();
  for (const item of items.values()) out.set(Number(item.id), fromPostItem<D>(item));
  return out;
}

/** Per type and status totals, kept in the same transactions as the posts (list totals read them). */
export function statusCount(type: PostType, from: string | undefined, to: string | undefined): Write[] {
  if (from === to) return [];
  const adds: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, number> = {};
  if (from) {
    adds.push('#from :minus');
    names['#from'] = from;
    values[':minus'] = -1;
  }
  if (to) {
    adds.push('#to :plus');
    names['#to'] = to;
    values[':plus'] = 1;
  }
  return [
    {
      item: {
        Update: {
          TableName: tableName(),
          Key: keys.statusTotals(type),
          UpdateExpression: `ADD ${adds.join(', ')}`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        },
      },
    },
  ];
}

export async function statusCounts(type: PostType): Promise<Record<string, number>> {
  const out = await ddb.send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.statusTotals(type),
      ConsistentRead: true,
    }),
  );
  const counts: Record<string, number> = {};
  for (const [k, v] of Object.entries(out.Item ?? {})) if (typeof v === 'number') counts[k] = v;
  return counts;
}

const guard = (type: PostType, slug: string, id: number): Write => ({
  item: {
    Put: {
      TableName: tableName(),
      Item: { ...keys.slugGuard(type, slug), id },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  },
  onConflict: 'slug',
});

export type NewPost<D extends object> = Omit<
  PostRecord<D>,
  'id' | 'slug' | 'version' | 'countPublic' | 'countAll'
>;

/**
 * Creates a post with the next ID of the shared post sequence and a unique slug; `extra` adds the
 * writes that must land with it (links, counts).
 */
export async function createPost<D extends object>(
  post: NewPost<D>,
  slugBase: string,
  extra: (record: PostRecord<D>) => Write[] = () => [],
): Promise<PostRecord<D>> {
  const id = await nextId('post');
  const base = { ...post, id, version: 1, countPublic: 0, countAll: 0 };
  let record = { ...base, slug: '' } as PostRecord<D>;
  await commitWithUniqueSlug({ type: post.type }, slugBase || String(id), (slug) => {
    record = { ...base, slug } as PostRecord<D>;
    return [
      {
        item: {
          Put: {
            TableName: tableName(),
            Item: { ...keys.post(id), ...indexKeys(record), ...record },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      },
      guard(post.type, slug, id),
      ...statusCount(post.type, undefined, post.status),
      ...extra(record),
    ];
  });
  return record;
}

/**
 * Writes the new state of a post (everything but its link counts, which event writes own) if nobody
 * changed it since it was read; `stale` is the error when someone did.
 */
export async function updatePost<D extends object>(
  current: PostRecord<D>,
  next: PostRecord<D>,
  stale: () => Error,
  extra: (record: PostRecord<D>) => Write[] = () => [],
  slugBase?: string,
): Promise<PostRecord<D>> {
  const build = (slug: string): Write[] => {
    const record = { ...next, slug, version: current.version + 1 };
    const ix = indexKeys(record);
    const set: Record<string, unknown> = { ...ix };
    for (const k of OWN) {
      if (k === 'id' || k === 'type') continue;
      // Counts belong to event writes; they are only written here when the caller resets them.
      if ((k === 'countPublic' || k === 'countAll') && record[k] === current[k]) continue;
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
    const writes: Write[] = [
      {
        item: {
          Update: {
            TableName: tableName(),
            Key: keys.post(current.id),
            UpdateExpression: `SET ${parts.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
            ConditionExpression: 'version = :v',
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
          },
        },
        onConflict: stale,
      },
      ...statusCount(current.type, current.status, next.status),
      ...extra(record),
    ];
    if (slug !== current.slug) {
      writes.push({
        item: { Delete: { TableName: tableName(), Key: keys.slugGuard(current.type, current.slug) } },
      });
      writes.push(guard(current.type, slug, current.id));
    }
    return writes;
  };
  if (slugBase === undefined || slugBase === current.slug) {
    await commit(build(current.slug));
    return { ...next, slug: current.slug, version: current.version + 1 };
  }
  const slug = await commitWithUniqueSlug({ type: current.type }, slugBase, build);
  return { ...next, slug, version: current.version + 1 };
}

/** Deletes a post for good, freeing its slug; `extra` removes what points at it. */
export async function deletePost(
  current: PostRecord<object>,
  stale: () => Error,
  extra: Write[] = [],
): Promise<void> {
  await commit([
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
    },
    { item: { Delete: { TableName: tableName(), Key: keys.slugGuard(current.type, current.slug) } } },
    ...statusCount(current.type, current.status, undefined),
    ...extra,
  ]);
}

/** Posts of a type, newest publication first (byStart index, descending), read lazily. */
export async function* postsNewestFirst<D extends object>(type: PostType): AsyncGenerator<PostRecord<D>> {
  for await (const item of queryIndex({
    index: 'byStart',
    partition: keys.typePartition(type),
    descending: true,
  }))
    yield fromPostItem<D>(item);
}

/** Posts of a type whose slug starts with `base`: records named like a new one. */
export async function* postsWithSlugPrefix<D extends object>(
  type: PostType,
  base: string,
): AsyncGenerator<PostRecord<D>> {
  for await (const item of recordsWithSlugPrefix({ type }, base)) yield fromPostItem<D>(item);
}
