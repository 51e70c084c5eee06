import { nested } from '../../../domain/errors';
import { assertCanEdit } from '../../../domain/post-rules';
import type { PostRecord } from '../../../domain/records';
import { assertMeets } from '../../../domain/revisions';
import type { User } from '../../../domain/roles';
import { canSee } from '../../../domain/visibility';
import { createPost, nextPostId, postsWithSlugPrefix, updatePost } from '../../../repositories/posts';
import { coerceObject, type Shape } from '../../../schemas/coerce';
import { checker, type RawValidate } from '../../../schemas/validation-errors';
import { type Ref, retryStale, staleError, type Writer } from '../../common';
import { loadLinked } from '..';
import { nextState } from './post-state';
import type { Body, LinkedData, LinkedPostType } from '..';
import { linkedView } from '..';

/** Only the by-slug update declares `slug` (spec §2.2, §4.1 rule 5); elsewhere a sent slug is ignored. */
const withoutSlug = (sent: Set<string>) => new Set([...sent].filter((k) => k !== 'slug'));

/** An inline record of an event body: an equal record to reuse, or a new one (ID taken) to create. */
export type InlineResult = { id: number } | { record: PostRecord<object>; slugBase: string };

/**
 * The writes of a venue-like post type, one mechanism for venues and organizers: creates, partial
 * updates (trash and restore by `status`) and the inline records of event bodies (deletes are in
 * ./linked-delete.ts). The type only brings its fields (LinkedPostType).
 */
export function linkedPostWrites<D extends LinkedData, B extends object>(def: LinkedPostType<D, B>) {
  let validateInline: ((data: unknown) => void) | undefined;

  /** Non-trashed records the caller can see whose slug starts like `title`'s: the same-named ones. */
  async function sameNamed(title: string, slugBase: string, user: User): Promise<PostRecord<D>[]> {
    if (!slugBase) return [];
    const out: PostRecord<D>[] = [];
    for await (const p of postsWithSlugPrefix<D>(def.type, slugBase))
      if (p.title === title && p.status !== 'trash' && canSee(p, user)) out.push(p);
    return out;
  }

  async function updateOnce(ref: Ref, body: B, sent: Set<string>, ctx: Writer) {
    const current = await loadLinked(def, ref);
    const { record, slugBase } = nextState(
      def,
      body,
      'slug' in ref ? sent : withoutSlug(sent),
      ctx.user,
      current,
    );
    assertCanEdit(current, ctx.user);
    assertMeets(ctx.ifMatch, current, def.type);
    const stale = staleError(ctx, def.type);
    return linkedView(def, await updatePost<D>(current, record, stale, undefined, slugBase), false);
  }

  return {
    async create(body: B, sent: Set<string>, ctx: Writer) {
      const { record, slugBase } = nextState(def, body, withoutSlug(sent), ctx.user);
      const { id: _id, slug: _slug, version: _v, countPublic: _p, countAll: _a, ...fresh } = record;
      return linkedView(def, await createPost<D>(fresh, slugBase ?? '', undefined, ctx.creation), false);
    },

    /**
     * Partial update by ID or slug; validation (400) comes before ownership (403), decisions §3.
     * Trashing by `status` keeps every link (decisions §6): restoring brings them all back.
     */
    update(ref: Ref, body: B, sent: Set<string>, ctx: Writer) {
      return retryStale(ctx, () => updateOnce(ref, body, sent, ctx));
    },

    /**
     * An inline record of an event body (`param` names it, e.g. `venue[1]`): an existing record (or one
     * `planned` earlier in the same body) with the same name and the same values for every field given
     * is reused, else a new record is returned for the event's write to create (decisions §6). Its
     * 400s name the event's parameter. Nothing is written here. It is coerced and checked as a create
     * body of its type, by the shape and validator compiled ahead of time that linked-inline.ts holds.
     */
    async resolveInline(
      raw: Body,
      user: User,
      param: string,
      planned: PostRecord<D>[],
      validateCreateBody: RawValidate,
      createShape: Shape,
    ): Promise<InlineResult> {
      const body = coerceObject(createShape, raw) as B;
      const sent = new Set(Object.keys(raw));
      // What it needs (the sanitizer, the URL checks, the date parser) was loaded for the event's body
      // (shared/http/lazy-parts.ts).
      validateInline ??= checker(validateCreateBody);
      const { record, slugBase } = nested(param, () => {
        validateInline!(body);
        return nextState(def, body, withoutSlug(sent), user);
      });
      const fields = [...sent].filter((k) => k === 'description' || def.dataKeys.includes(k));
      const data = (p: PostRecord<D>) => p.data as Record<string, unknown>;
      const equal = (p: PostRecord<D>) =>
        p.title === record.title &&
        fields.every((k) =>
          k === 'description' ? p.description === record.description : data(p)[k] === data(record)[k],
        );
      const existing =
        planned.find(equal) ?? (await sameNamed(record.title, slugBase ?? '', user)).find(equal);
      if (existing) return { id: existing.id };
      const id = await nextPostId();
      return { record: { ...record, id, version: 1, countPublic: 0, countAll: 0 }, slugBase: slugBase ?? '' };
    },
  };
}
