import { DateTime } from 'luxon';
import { keys } from '../db/keys';
import { queryItems } from '../db/query';
import { TABLE } from '../db/table';
import type { User } from '../http/auth';
import { conflict, notFound, slugNotFound } from '../http/errors';
import { coerceObject } from '../http/params';
import type { Reply } from '../http/respond';
import type { ApiUrls } from '../http/urls';
import { compileValidator } from '../http/validate';
import {
  createPost,
  deletePost,
  fromPostItem,
  getPost,
  getPostBySlug,
  type PostRecord,
  updatePost,
} from '../repositories/posts';
import { unlinkWrites } from '../repositories/unlink';
import { siteZone, utcWall, wall } from './dates';
import { type LinkedListQuery, listLinkedPosts } from './linked-post-list';
import { nested, nextState } from './linked-post-state';
import type { Body, LinkedData, LinkedPostType } from './linked-post-type';
import { linkedView } from './linked-post-view';
import { assertCanDelete, assertCanEdit, assertReadable, publicUrl, trashed } from './post-rules';
import { canSee } from './visibility';

type Ctx = { user: User | null; urls: ApiUrls };
type Writer = Ctx & { user: User };
export type PostRef = { id: number } | { slug: string };

/** Only the by-slug update declares `slug` (spec §2.2, §4.1 rule 5); elsewhere a sent slug is ignored. */
const withoutSlug = (sent: Set<string>) => new Set([...sent].filter((k) => k !== 'slug'));

/**
 * The routes of a venue-like post type, one mechanism for venues and organizers: reads by ID or slug,
 * lists, creates, partial updates, trash / restore / permanent delete, and the inline records of
 * event bodies. The type only brings its fields (LinkedPostType).
 */
export function linkedPostService<D extends LinkedData>(def: LinkedPostType<D>) {
  const stale = () => conflict(def.type);
  const validateInline = compileValidator(def.createBody);

  async function load(ref: PostRef): Promise<PostRecord<D>> {
    const post = 'id' in ref ? await getPost<D>(ref.id) : await getPostBySlug<D>(def.type, ref.slug);
    if (!post || post.type !== def.type)
      throw 'id' in ref ? notFound(def.type, ref.id) : slugNotFound(def.type, ref.slug);
    return post;
  }

  /**
   * Writes the next state. Moving to the trash (by DELETE or by `status`) unlinks the record from its
   * events in the same transaction and zeroes its event counts, so a restored record starts unlinked.
   */
  async function save(
    current: PostRecord<D>,
    next: PostRecord<D>,
    slugBase?: string,
  ): Promise<PostRecord<D>> {
    const trashing = next.status === 'trash' && current.status !== 'trash';
    const unlink = trashing ? await unlinkWrites(def.kind, current.id, stale) : [];
    const record = trashing ? { ...next, countPublic: 0, countAll: 0 } : next;
    return updatePost<D>(current, record, stale, () => unlink, slugBase);
  }

  async function create(body: Body, sent: Set<string>, user: User): Promise<PostRecord<D>> {
    const { record, slugBase } = nextState(def, body, withoutSlug(sent), user);
    const { id: _id, slug: _slug, version: _v, countPublic: _p, countAll: _a, ...fresh } = record;
    return createPost<D>(fresh, slugBase ?? '');
  }

  /** Non-trashed records the caller can see whose slug starts like `title`'s: the same-named ones. */
  async function sameNamed(title: string, slugBase: string, user: User): Promise<PostRecord<D>[]> {
    if (!slugBase) return [];
    const ix = TABLE.indexes.bySlug;
    const out: PostRecord<D>[] = [];
    for await (const item of queryItems({
      IndexName: ix.name,
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :base)',
      ExpressionAttributeNames: { '#pk': ix.partitionKey, '#sk': ix.sortKey },
      ExpressionAttributeValues: { ':pk': keys.typePartition(def.type), ':base': slugBase },
    })) {
      const p = fromPostItem<D>(item);
      if (p.title === title && p.status !== 'trash' && canSee(p, user)) out.push(p);
    }
    return out;
  }

  const view = (p: PostRecord<D>, single: boolean) => linkedView(def, p, single);

  return {
    view,
    jsonLd: (p: PostRecord<D>) => def.jsonLd(p, publicUrl(def.type, p.slug)),

    list: (q: LinkedListQuery, ctx: Ctx): Promise<Reply> => listLinkedPosts(def, q, ctx),

    async get(ref: PostRef, ctx: Ctx): Promise<Reply> {
      const post = await load(ref);
      assertReadable(def.type, post, ctx.user);
      return { body: view(post, true) };
    },

    async create(body: Body, sent: Set<string>, ctx: Writer): Promise<Reply> {
      const created = await create(body, sent, ctx.user);
      return {
        status: 201,
        body: view(created, false),
        headers: { Location: `${ctx.urls.root}/${def.collection}/${created.id}` },
      };
    },

    /** Partial update by ID or slug; validation (400) comes before ownership (403), decisions §3. */
    async update(ref: PostRef, body: Body, sent: Set<string>, ctx: Writer): Promise<Reply> {
      const current = await load(ref);
      const { record, slugBase } = nextState(
        def,
        body,
        'slug' in ref ? sent : withoutSlug(sent),
        ctx.user,
        current,
      );
      assertCanEdit(current, ctx.user);
      return { body: view(await save(current, record, slugBase), false) };
    },

    /** Moves to the trash (200 with the trashed record, 410 when already there); `force` deletes for good. */
    async remove(ref: PostRef, force: boolean, ctx: Writer): Promise<Reply> {
      const current = await load(ref);
      assertCanDelete(current, ctx.user, force);
      if (force) {
        const body = view(current, false);
        await deletePost(current, stale, await unlinkWrites(def.kind, current.id, stale));
        return { body };
      }
      if (current.status === 'trash') throw trashed(def.type);
      const now = DateTime.now();
      const next = {
        ...current,
        status: 'trash',
        modified: wall(now.setZone(siteZone())),
        modified_utc: utcWall(now),
      };
      return { body: view(await save(current, next), false) };
    },

    /**
     * An inline record of an event body (`param` names it, e.g. `venue[1]`): an existing record with
     * the same name and the same values for every field given is reused, else one is created
     * (decisions §6). Its 400s name the event's parameter.
     */
    async findOrCreate(raw: Body, user: User, param: string): Promise<number> {
      const body = coerceObject(def.createBody, raw);
      const sent = new Set(Object.keys(raw));
      const { record, slugBase } = nested(param, () => {
        validateInline(body);
        return nextState(def, body, sent, user);
      });
      const fields = [...sent].filter((k) => k === 'description' || def.dataKeys.includes(k));
      const data = (p: PostRecord<D>) => p.data as Record<string, unknown>;
      const equal = (p: PostRecord<D>) =>
        fields.every((k) =>
          k === 'description' ? p.description === record.description : data(p)[k] === data(record)[k],
        );
      const existing = (await sameNamed(record.title, slugBase ?? '', user)).find(equal);
      return existing?.id ?? (await create(body, sent, user)).id;
    },
  };
}
