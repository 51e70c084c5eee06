import { invalidParam } from '../../../domain/errors';
import type { LinkFilter } from '../../../domain/event-query';
import { assertLinkable } from '../../../domain/post-rules';
import type { PostRecord } from '../../../domain/records';
import type { EventRecord } from '../../../domain/event-record';
import { slugKey } from '../../../domain/slugs';
import { termIdsOf } from '../../../domain/term-refs';
import { allInOrder } from '../../common';
import type { EventListQuery } from './plan';
import type { ListReads } from './reads';

/** A check of a filter's targets that needs a read of its own (unknown → 400). */
export type Check = () => Promise<void>;

/**
 * A tag filter: slugs resolved to IDs through their guards (IDs need no read), and the check that
 * every tag exists, run later (see the drivers) so that it shares a round trip with the first read.
 */
async function tagTargets(
  reads: ListReads,
  refs: Array<number | string>,
): Promise<{ filter: LinkFilter; check: Check }> {
  const slugs = refs.filter((r): r is string => typeof r === 'string').map(slugKey);
  const bySlug = slugs.length > 0 ? await reads.termIdsOfSlugs('post_tag', slugs) : new Map<string, number>();
  const ids = refs.map((r) => (typeof r === 'number' ? r : bySlug.get(slugKey(r))));
  const known = [...new Set(ids.filter((id): id is number => id !== undefined))];
  const check = async () => {
    const found =
      known.length > 0
        ? await reads.findTerms(
            'post_tag',
            known.map((id) => ({ id })),
          )
        : [];
    const exists = new Set(found.flatMap((t) => (t ? [t.id] : [])));
    const unknown = refs.filter((_, i) => ids[i] === undefined || !exists.has(ids[i]!));
    if (unknown.length > 0)
      throw invalidParam(
        'tags',
        `tags contains unknown IDs or slugs: ${unknown.join(', ')}.`,
        'rest_unknown_term',
      );
  };
  // One target as the plan counts them (event-list-plan.ts): one ref, however often repeated.
  return {
    filter: { kind: 'TERM', ids: known, leaf: new Set(refs).size === 1 && known.length === 1 },
    check,
  };
}

/** Resolves category IDs / slugs (unknown → 400) with their descendants, from the (small) taxonomy. */
async function categoryTargets(reads: ListReads, refs: Array<number | string>): Promise<LinkFilter> {
  const terms = await reads.listTerms('tribe_events_cat');
  const found = termIdsOf('categories', refs, terms);
  // One category asked for as the plan counts them (event-list-plan.ts): one ref, however often
  // repeated (a slug and the ID of one category are two refs there, so here too).
  const one = new Set(refs).size === 1;
  const [asked] = found;
  for (let grew = true; grew;) {
    grew = false;
    for (const t of terms)
      if (found.has(t.parent) && !found.has(t.id)) {
        found.add(t.id);
        grew = true;
      }
  }
  const leaf = one && found.size === 1;
  // One category with children: its subtree tallies count it (unless flagged stale, see the tally driver).
  const tree = one && !leaf ? asked : undefined;
  return {
    kind: 'TERM',
    ids: [...found],
    leaf,
    estimate: terms.reduce((n, t) => n + (found.has(t.id) ? t.countAll : 0), 0),
    linkedToAny: terms.reduce((n, t) => n + t.countAll, 0),
    ...(tree !== undefined ? { tree } : {}),
    ...(one ? { category: asked } : {}),
  };
}

/** The series an event ID names (any of its occurrences): a 400 naming `series` for any other ID. */
async function seriesTarget(reads: ListReads, id: number): Promise<LinkFilter> {
  const event = (await reads.getPosts([id])).get(id) as EventRecord | undefined;
  const series = event?.type === 'event' ? event.data.series?.id : undefined;
  if (series === undefined)
    throw invalidParam(
      'series',
      `series must be the ID of an occurrence of a series; ${id} is ${event?.type === 'event' ? 'a single event' : 'no event'}.`,
      'rest_invalid_param',
    );
  return { kind: 'SERIES', ids: [series], leaf: true };
}

/**
 * A venue / organizer filter, and the check that its IDs name existing, untrashed records of the
 * type: run later (see the drivers), so that it can share a round trip with the first read, unless
 * the records were read already (`read`, which also gives the filter its estimate).
 */
function postTargets(
  reads: ListReads,
  param: 'venue' | 'organizer',
  ids: number[],
  read?: ReadonlyMap<number, PostRecord<object>>,
): { filter: LinkFilter; check: Check } {
  const check = async () => assertLinkable(param, ids, read ?? (await reads.getPosts(ids)));
  const filter: LinkFilter = { kind: param === 'venue' ? 'VENUE' : 'ORGANIZER', ids, leaf: ids.length === 1 };
  if (read) filter.estimate = ids.reduce((n, id) => n + (read.get(id)?.countAll ?? 0), 0);
  return { filter, check };
}

/**
 * The query's link filters resolved to IDs (categories with their descendants), in the order
 * categories, tags, venue, organizer, series, ticketed, and the checks of their targets that need reads of their own.
 * The category taxonomy and the tags' slug guards are read together; with the taxonomy, the venues
 * and organizers asked for too, since that round trip is made anyway (their counts then tell which
 * filter is likely smaller, see likelyDriver). Without categories their check joins a later round.
 */
export async function resolveTargets(
  q: EventListQuery,
  reads: ListReads,
): Promise<{ links: LinkFilter[]; checks: Check[] }> {
  const links: LinkFilter[] = [];
  const checks: Check[] = [];
  const postIds = q.categories ? [...(q.venue ?? []), ...(q.organizer ?? [])] : [];
  const [categories, tags, posts, series] = await allInOrder([
    q.categories ? categoryTargets(reads, q.categories) : undefined,
    q.tags ? tagTargets(reads, q.tags) : undefined,
    postIds.length > 0 ? reads.getPosts(postIds) : undefined,
    q.series !== undefined ? seriesTarget(reads, q.series) : undefined,
  ] as const);
  if (categories) links.push(categories);
  if (tags) {
    links.push(tags.filter);
    checks.push(tags.check);
  }
  for (const param of ['venue', 'organizer'] as const) {
    const ids = q[param];
    if (!ids) continue;
    const { filter, check } = postTargets(reads, param, ids, posts);
    links.push(filter);
    checks.push(check);
  }
  if (series) links.push(series);
  // The ticketed events (`ticketed=true`): their membership rows, counted by a tally of their own.
  if (q.ticketed === true) links.push({ kind: 'TICKETED', ids: [0], leaf: true });
  if (q.post_parent !== undefined) {
    const id = q.post_parent;
    checks.push(async () => {
      const parent = (await reads.getPosts([id])).get(id);
      if (parent?.type !== 'event')
        throw invalidParam(
          'post_parent',
          'post_parent must be the ID of an existing event.',
          'rest_unknown_event',
        );
    });
  }
  return { links, checks };
}
