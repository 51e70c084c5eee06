import { DateTime } from 'luxon';
import { siteZone, utcWall, wall } from '../domain/dates';
import { conflict, nested, trashed } from '../domain/errors';
import { assertCanDelete, assertCanEdit } from '../domain/post-rules';
import type { PostRecord } from '../domain/records';
import type { User } from '../domain/roles';
import { canSee } from '../domain/visibility';
import { createPost, deletePost, postsWithSlugPrefix, updatePost } from '../repositories/posts';
import { unlinkWrites } from '../repositories/unlink';
import { coerceObject } from '../schemas/coerce';
import { compileValidator } from '../schemas/validate';
import type { Ref, Writer } from './context';
import { loadLinked } from './linked-read';
import { nextState } from './linked-post-state';
import type { Body, LinkedData, LinkedPostType } from './linked-post-type';
import { linkedView } from './linked-post-view';

/** Only the by-slug update declares `slug` (spec §2.2, §4.1 rule 5); elsewhere a sent slug is ignored. */
const withoutSlug = (sent: Set<string>) => new Set([...sent].filter((k) => k !== 'slug'));

/**
 * The writes of a venue-like post type, one mechanism for venues and organizers: creates, partial
 * updates, trash / restore / permanent delete, and the inline records of event bodies. The type only
 * brings its fields (LinkedPostType).
 */
export function linkedPostWrites<D extends LinkedData, B extends object>(def: LinkedPostType<D, B>) {
  const stale = () => conflict(def.type);
  const loose = def as unknown as LinkedPostType<D, object>;

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

  async function create(body: B, sent: Set<string>, user: User): Promise<PostRecord<D>> {
    const { record, slugBase } = nextState(def, body, withoutSlug(sent), user);
    const { id: _id, slug: _slug, version: _v, countPublic: _p, countAll: _a, ...fresh } = record;
    return createPost<D>(fresh, slugBase ?? '');
  }

  /** Non-trashed records the caller can see whose slug starts like `title`'s: the same-named ones. */
  async function sameNamed(title: string, slugBase: string, user: User): Promise<PostRecord<D>[]> {
    if (!slugBase) return [];
    const out: PostRecord<D>[] = [];
    for await (const p of postsWithSlugPrefix<D>(def.type, slugBase))
      if (p.title === title && p.status !== 'trash' && canSee(p, user)) out.push(p);
    return out;
  }

  let validateInline: ((data: unknown) => void) | undefined;

  return {
    async create(body: B, sent: Set<string>, ctx: Writer) {
      return linkedView(def, await create(body, sent, ctx.user), false);
    },

    /** Partial update by ID or slug; validation (400) comes before ownership (403), decisions §3. */
    async update(ref: Ref, body: B, sent: Set<string>, ctx: Writer) {
      const current = await loadLinked(loose, ref);
      const { record, slugBase } = nextState(
        def,
        body,
        'slug' in ref ? sent : withoutSlug(sent),
        ctx.user,
        current,
      );
      assertCanEdit(current, ctx.user);
      return linkedView(def, await save(current, record, slugBase), false);
    },

    /** Moves to the trash (the trashed record; gone when already there); `force` deletes for good. */
    async remove(ref: Ref, force: boolean, ctx: Writer) {
      const current = await loadLinked(loose, ref);
      assertCanDelete(current, ctx.user, force);
      if (force) {
        const body = linkedView(def, current, false);
        await deletePost(current, stale, await unlinkWrites(def.kind, current.id, stale));
        return body;
      }
      if (current.status === 'trash') throw trashed(def.type);
      const now = DateTime.now();
      const next = {
        ...current,
        status: 'trash',
        modified: wall(now.setZone(siteZone())),
        modified_utc: utcWall(now),
      };
      return linkedView(def, await save(current, next), false);
    },

    /**
     * An inline record of an event body (`param` names it, e.g. `venue[1]`): an existing record with
     * the same name and the same values for every field given is reused, else one is created
     * (decisions §6). Its 400s name the event's parameter.
     */
    async findOrCreate(raw: Body, user: User, param: string): Promise<number> {
      const body = coerceObject(def.createBody, raw) as B;
      const sent = new Set(Object.keys(raw));
      validateInline ??= compileValidator(def.createBody);
      const { record, slugBase } = nested(param, () => {
        validateInline!(body);
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
