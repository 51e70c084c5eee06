import { invalidParam, notFound } from '../../domain/errors';
import { type Page, pageOf, sliceOf } from '../../domain/paging';
import type { Taxonomy, TermRecord } from '../../domain/records';
import type { User } from '../../domain/roles';
import { slugKey } from '../../domain/slugs';
import { termIdsOf } from '../../domain/term-refs';
import { canSee, seesAll } from '../../domain/visibility';
import { linkedIds } from '../../repositories/links';
import { getPostHead } from '../../repositories/posts';
import { findTerms } from '../../repositories/term-lookup';
import { getTerm, listTerms, termsByName, type TermTotals, termTotals } from '../../repositories/terms';
import { termsInUseByName } from '../../repositories/term-use';
import type { Infer } from '../../schemas/infer';
import type { categoryListQuery } from '../../schemas/term';
import type { Caller } from '../common';
import { type TermView, termView, visibleCount } from './view';

/** A category or tag list query (tags have no `parent`). */
export type TermListQuery = Infer<typeof categoryListQuery>;

export const byIdMap = (terms: TermRecord[]) => new Map(terms.map((t) => [t.id, t]));
export const termNoun = (taxonomy: Taxonomy) => (taxonomy === 'tribe_events_cat' ? 'category' : 'tag');

/** The term a path names; an unknown ID, or another taxonomy's, is not found. */
export async function loadTerm(taxonomy: Taxonomy, id: number): Promise<TermRecord> {
  const term = await getTerm(id);
  if (!term || term.taxonomy !== taxonomy) throw notFound(termNoun(taxonomy), id);
  return term;
}

/** The reads of one taxonomy: categories (hierarchical) and tags share all of them. */
export function termReads(taxonomy: Taxonomy) {
  const type = termNoun(taxonomy);
  const load = (id: number) => loadTerm(taxonomy, id);

  async function termsOfEvent(param: string, eventId: number, user: User | null): Promise<Set<number>> {
    const post = await getPostHead(eventId);
    if (!post || post.type !== 'event' || post.status === 'trash' || !canSee(post, user))
      throw invalidParam(param, `${param} must be the ID of an existing event.`, 'rest_unknown_event');
    return new Set(await linkedIds(eventId, 'TERM'));
  }

  return {
    async list(query: TermListQuery, { user, root }: Caller): Promise<Page<TermView>> {
      const q = withSlugKeys(query);
      const editor = seesAll(user);
      const fast = await byNameIndex(taxonomy, q, editor);
      if (fast)
        return {
          items: fast.terms.map((t) => termView(t, { root, seesAll: editor, byId: fast.byId })),
          total: fast.total,
          paging: fast.paging,
        };
      const all = await listTerms(taxonomy);
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
      return {
        items: sliceOf(terms, paging).map((t) => termView(t, { root, seesAll: editor, byId })),
        total: terms.length,
        paging,
      };
    },

    async get(id: number, { user, root }: Caller): Promise<TermView> {
      const term = await load(id);
      return termView(term, { root, seesAll: seesAll(user), byId: await ancestors(term) });
    },
  };
}

/**
 * A name-ordered list without filters costs its page, not the taxonomy: the page's keys from the name
 * index (every term, `hide_empty=false`) or from the in-use index of the caller's count (the default,
 * `hide_empty=true`; repositories/term-use.ts), then the page's ancestors (categories' archive URLs).
 * Page 1 reads its keys together with the totals, in one round trip; a later page reads the totals
 * first, so a page past the end (200 and empty, decisions §5) reads no keys at all, and one inside the
 * list reads at most the list up to its last row: no read, and no `Limit`, grows with `page` beyond
 * the list. Undefined when the list needs the full read: filters, another order, or a taxonomy holding
 * a name the indexes cannot order.
 */
async function byNameIndex(taxonomy: Taxonomy, q: TermListQuery, editor: boolean) {
  const filtered =
    q.include !== undefined ||
    q.exclude !== undefined ||
    q.parent !== undefined ||
    q.event !== undefined ||
    q.post !== undefined ||
    q.slug !== undefined ||
    q.search !== undefined;
  if (filtered || (q.orderby ?? 'name') !== 'name') return undefined;
  const paging = pageOf(q);
  const descending = q.order === 'desc';
  const scope = editor ? 'all' : 'public';
  const inUse = q.hide_empty !== false;
  const upTo = (limit: number) =>
    inUse ? termsInUseByName(taxonomy, scope, limit, descending) : termsByName(taxonomy, limit, descending);
  const totalOf = (t: TermTotals) => (!inUse ? t.terms : editor ? t.inUseAll : t.inUsePublic);
  let totals: TermTotals;
  let read: TermRecord[];
  if (paging.page === 1) [totals, read] = await Promise.all([termTotals(taxonomy), upTo(paging.perPage)]);
  else {
    totals = await termTotals(taxonomy);
    const offset = (paging.page - 1) * paging.perPage;
    read = offset < totalOf(totals) && totals.unordered === 0 ? await upTo(offset + paging.perPage) : [];
  }
  if (totals.unordered > 0) return undefined;
  const total = totalOf(totals);
  const terms = sliceOf(read, paging);
  const byId = byIdMap(terms);
  for (
    let missing = parentsMissing(terms, byId);
    missing.length > 0;
    missing = parentsMissing([...byId.values()], byId)
  ) {
    const found = await findTerms(
      taxonomy,
      missing.map((id) => ({ id })),
    );
    for (const t of found) if (t) byId.set(t.id, t);
    if (found.every((t) => !t)) break;
  }
  return { terms, total, paging, byId };
}

const parentsMissing = (terms: TermRecord[], byId: Map<number, TermRecord>) => [
  ...new Set(terms.filter((t) => t.parent > 0 && !byId.has(t.parent)).map((t) => t.parent)),
];

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

// Built on first use: the name-ordered list without filters reads its order from the name index, and
// building a collator at module load costs about 6 ms of every term function's cold start.
let collator: Intl.Collator | undefined;
const compareNames = (a: string, b: string) =>
  (collator ??= new Intl.Collator('en', { sensitivity: 'base', numeric: true })).compare(a, b);

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
      typeof ka === 'number' && typeof kb === 'number' ? ka - kb : compareNames(String(ka), String(kb));
    return (c !== 0 ? c : a.id - b.id) * dir;
  });
}

/** The list's slug filters in their stored form: a client may send them encoded or decoded (decisions §9). */
function withSlugKeys(q: TermListQuery): TermListQuery {
  const keyed = (refs: Array<number | string> | undefined) =>
    refs?.map((r) => (typeof r === 'string' ? slugKey(r) : r));
  return {
    ...q,
    ...(q.slug !== undefined && { slug: slugKey(q.slug) }),
    ...(q.include && { include: keyed(q.include) }),
    ...(q.exclude && { exclude: keyed(q.exclude) }),
  };
}
