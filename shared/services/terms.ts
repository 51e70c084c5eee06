import type { Taxonomy } from '../db/keys';
import { conflict, invalidParam, notFound } from '../http/errors';
import { listReply, pageOf, sliceOf } from '../http/paging';
import type { Reply } from '../http/respond';
import type { User } from '../http/auth';
import type { ApiUrls } from '../http/urls';
import { linkedIds } from '../repositories/links';
import { getPostHead } from '../repositories/posts';
import {
  createTerm,
  deleteTerm,
  getTerm,
  listTerms,
  type TermChanges,
  type TermRecord,
  updateTerm,
} from '../repositories/terms';
import { unlinkWrites } from '../repositories/unlink';
import { slugify } from './slugs';
import { termIdsOf } from './term-refs';
import { COLLECTION, termView, visibleCount } from './term-view';
import { plainText, safeHtml } from './text';
import { canSee, seesAll } from './visibility';

type Ctx = { user: User | null; urls: ApiUrls };

export interface TermListQuery {
  page?: number;
  per_page?: number;
  search?: string;
  include?: Array<number | string>;
  exclude?: Array<number | string>;
  order?: 'asc' | 'desc';
  orderby?: string;
  hide_empty?: boolean;
  parent?: number;
  post?: number;
  event?: number;
  slug?: string;
}

export interface TermBody {
  name?: string;
  description?: string;
  slug?: string;
  parent?: number;
}

const byIdMap = (terms: TermRecord[]) => new Map(terms.map((t) => [t.id, t]));
const now = () => new Date().toISOString();

/** Domain rules of one taxonomy: categories (hierarchical) and tags share all of them. */
export function termService(taxonomy: Taxonomy) {
  const type = taxonomy === 'tribe_events_cat' ? 'category' : 'tag';
  const collection = COLLECTION[taxonomy];

  async function load(id: number): Promise<TermRecord> {
    const term = await getTerm(id);
    if (!term || term.taxonomy !== taxonomy) throw notFound(type, id);
    return term;
  }

  async function termsOfEvent(param: string, eventId: number, user: User | null): Promise<Set<number>> {
    const post = await getPostHead(eventId);
    if (!post || post.type !== 'event' || post.status === 'trash' || !canSee(post, user))
      throw invalidParam(param, `${param} must be the ID of an existing event.`, 'rest_unknown_event');
    return new Set(await linkedIds(eventId, 'TERM'));
  }

  function checkParent(parent: number | undefined, terms: Map<number, TermRecord>, self?: number): void {
    if (parent === undefined || parent === 0) return;
    if (!terms.has(parent))
      throw invalidParam('parent', `parent must be the ID of an existing ${type}.`, 'rest_unknown_parent');
    for (let p: number | undefined = parent; p; p = terms.get(p)?.parent) {
      if (p === self)
        throw invalidParam('parent', 'parent would make the category its own ancestor.', 'rest_parent_cycle');
    }
  }

  function cleanName(name: string): string {
    const clean = plainText(name);
    if (!clean) throw invalidParam('name', 'name must contain text once HTML is removed.', 'rest_too_short');
    return clean;
  }

  function cleanSlug(slug: string): string {
    const clean = slugify(slug);
    if (!clean)
      throw invalidParam('slug', 'slug must contain at least one letter or digit.', 'rest_invalid_slug');
    return clean;
  }

  const staleError = () => conflict(type);
  const parentGone = () =>
    invalidParam('parent', `parent must be the ID of an existing ${type}.`, 'rest_unknown_parent');

  return {
    async list(q: TermListQuery, { user, urls }: Ctx): Promise<Reply> {
      const all = await listTerms(taxonomy);
      const editor = seesAll(user);
      let terms = all;
      if (q.include) {
        const ids = termIdsOf('include', q.include, all);
        terms = terms.filter((t) => ids.has(t.id));
      }
      if (q.exclude) {
        const ids = termIdsOf('exclude', q.exclude, all);
        terms = terms.filter((t) => !ids.has(t.id));
      }
      if (q.parent !== undefined) {
        if (q.parent !== 0 && !all.some((t) => t.id === q.parent))
          throw invalidParam(
            'parent',
            `parent must be the ID of an existing ${type}.`,
            'rest_unknown_parent',
          );
        terms = terms.filter((t) => t.parent === q.parent);
      }
      const eventId = q.event ?? q.post;
      if (eventId !== undefined) {
        const ids = await termsOfEvent(q.event !== undefined ? 'event' : 'post', eventId, user);
        terms = terms.filter((t) => ids.has(t.id));
      }
      if (q.slug !== undefined) terms = terms.filter((t) => t.slug === q.slug);
      if (q.search !== undefined) {
        const needle = q.search.toLowerCase();
        terms = terms.filter((t) => t.name.toLowerCase().includes(needle) || t.slug.includes(needle));
      }
      if (q.hide_empty !== false) terms = terms.filter((t) => visibleCount(t, editor) > 0);
      terms = sortTerms(terms, q, editor);
      const paging = pageOf(q);
      const byId = byIdMap(all);
      return listReply({
        key: collection,
        items: sliceOf(terms, paging).map((t) => termView(t, { root: urls.root, seesAll: editor, byId })),
        total: terms.length,
        paging,
        urls,
        pastEnd: 'empty',
        itemsFirst: false,
      });
    },

    async get(id: number, { user, urls }: Ctx): Promise<Reply> {
      const term = await load(id);
      return {
        body: termView(term, { root: urls.root, seesAll: seesAll(user), byId: await ancestors(term) }),
      };
    },

    async create(body: TermBody, { user, urls }: Ctx): Promise<Reply> {
      const name = cleanName(body.name ?? '');
      const all =
        taxonomy === 'tribe_events_cat' ? byIdMap(await listTerms(taxonomy)) : new Map<number, TermRecord>();
      // Only categories have a parent: the tags' body schema has none, so a stray `parent` is ignored.
      const parent = taxonomy === 'tribe_events_cat' ? body.parent : undefined;
      checkParent(parent, all);
      const term = await createTerm(
        {
          taxonomy,
          name,
          slugBase: body.slug !== undefined ? cleanSlug(body.slug) : slugify(name),
          description: safeHtml(body.description ?? ''),
          parent: parent ?? 0,
        },
        now(),
        parentGone,
      );
      const view = termView(term, { root: urls.root, seesAll: seesAll(user), byId: all });
      return { status: 201, body: view, headers: { Location: view.urls.self } };
    },

    async update(id: number, body: TermBody, sent: Set<string>, { user, urls }: Ctx): Promise<Reply> {
      const current = await load(id);
      const changes: TermChanges = {};
      if (sent.has('name') && body.name !== undefined) changes.name = cleanName(body.name);
      if (sent.has('description') && body.description !== undefined)
        changes.description = safeHtml(body.description);
      if (sent.has('slug') && body.slug !== undefined) changes.slugBase = cleanSlug(body.slug);
      let all = new Map<number, TermRecord>();
      if (taxonomy === 'tribe_events_cat') {
        all = byIdMap(await listTerms(taxonomy));
        if (sent.has('parent') && body.parent !== undefined) {
          checkParent(body.parent, all, id);
          changes.parent = body.parent;
        }
      }
      const term = await updateTerm(current, changes, now(), { stale: staleError, parentGone });
      all.set(term.id, term);
      return { body: termView(term, { root: urls.root, seesAll: seesAll(user), byId: all }) };
    },

    async remove(id: number, { user, urls }: Ctx): Promise<Reply> {
      const term = await load(id);
      const all = taxonomy === 'tribe_events_cat' ? await listTerms(taxonomy) : [];
      const view = termView(term, { root: urls.root, seesAll: seesAll(user), byId: byIdMap(all) });
      const unlink = await unlinkWrites('TERM', id, staleError);
      await deleteTerm(
        term,
        all.filter((t) => t.parent === id),
        now(),
        staleError,
        unlink,
      );
      return { body: view };
    },
  };
}

/** The term with its ancestors, enough to build a category's archive URL. */
async function ancestors(term: TermRecord): Promise<Map<number, TermRecord>> {
  const map = new Map([[term.id, term]]);
  for (let p = term.parent; p > 0 && !map.has(p);) {
    const parent = await getTerm(p);
    if (!parent) break;
    map.set(parent.id, parent);
    p = parent.parent;
  }
  return map;
}

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

function sortTerms(terms: TermRecord[], q: TermListQuery, editor: boolean): TermRecord[] {
  const orderby = q.orderby ?? 'name';
  const dir = q.order === 'desc' ? -1 : 1;
  const includeOrder = new Map((q.include ?? []).map((ref, i) => [ref, i]));
  const key = (t: TermRecord): number | string => {
    switch (orderby) {
      case 'id':
        return t.id;
      case 'count':
        return visibleCount(t, editor);
      case 'slug':
        return t.slug;
      case 'description':
        return t.description;
      case 'parent':
        return t.parent;
      case 'include':
        return includeOrder.get(t.id) ?? includeOrder.get(t.slug) ?? Number.MAX_SAFE_INTEGER;
      case 'term_group':
        return 0;
      default:
        return t.name;
    }
  };
  return [...terms].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    const c =
      typeof ka === 'number' && typeof kb === 'number' ? ka - kb : collator.compare(String(ka), String(kb));
    return (c !== 0 ? c : a.id - b.id) * dir;
  });
}

export const categories = termService('tribe_events_cat');
export const tags = termService('post_tag');
