import { invalidParam } from '../../../domain/errors';
import type { LinkField } from '../../../domain/event-record';
import type { LinkKind, PostRecord, Taxonomy, TermRecord } from '../../../domain/records';
import { assertLinkable } from '../../../domain/post-rules';
import { atLeast, type User } from '../../../domain/roles';
import { slugify, slugKey } from '../../../domain/slugs';
import { plainText } from '../../../domain/text';
import type { PlannedWrite } from '../../../repositories/unit-of-work';
import { getPosts, newPostWrites } from '../../../repositories/posts';
import type { SlugClaim } from '../../../repositories/slug-claims';
import { findTerms, type TermRef } from '../../../repositories/term-lookup';
import { newTerm, newTermWrites, nextTermId } from '../../../repositories/terms';

/** A record an event write creates (a new term, an inline venue or organizer), in the event's write. */
export interface PlannedRecord {
  kind: LinkKind;
  id: number;
  field: LinkField;
  claim: SlugClaim;
  /** Venues and organizers: their type's status total changes too. */
  post?: PostRecord<object>;
  /** Its items, once its slug is chosen: counts start with this event's weight; `claim` is its index. */
  build(slug: string, counts: { p: number; a: number }, claim: number): PlannedWrite[];
}

/**
 * The records one event write looks up, each read once: the 400 checks (checkLinks) and the
 * resolution that follows (resolveTerms, resolveLinkedPosts) name the same terms and posts. One per
 * attempt of a write, so an attempt that resolves again reads afresh.
 */
export interface LinkReads {
  terms(taxonomy: Taxonomy, refs: TermRef[]): Promise<Array<TermRecord | undefined>>;
  posts(ids: number[]): Promise<Map<number, PostRecord<object>>>;
}

export function linkReads(): LinkReads {
  const cache = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, read: () => Promise<T>): Promise<T> => {
    let hit = cache.get(key) as Promise<T> | undefined;
    if (!hit) {
      hit = read();
      cache.set(key, hit);
    }
    return hit;
  };
  return {
    terms: (taxonomy, refs) => once(`T|${taxonomy}|${JSON.stringify(refs)}`, () => findTerms(taxonomy, refs)),
    posts: (ids) => once(`P|${[...ids].sort((a, b) => a - b).join(',')}`, () => getPosts(ids)),
  };
}

/** A term created concurrently under the same name: resolving the links again will find it. */
export class ResolveAgain extends Error {}

/** How a body names a term: digits are an ID, anything else a slug or a name. */
const termRef = (ref: number | string): TermRef =>
  typeof ref === 'number' || /^\d+$/.test(ref)
    ? { id: Number(ref) }
    : { slug: slugKey(ref), orName: plainText(String(ref)) };

/**
 * `categories` / `tags` by ID, slug or name, looked up by key and guard items (never the whole
 * taxonomy). Unknown numeric IDs are a 400; an unknown name plans a new term when the caller may
 * manage terms (editors), else it is a 400 too. Nothing is written here.
 */
export async function resolveTerms(
  param: 'categories' | 'tags',
  refs: Array<number | string> | null,
  user: User,
  created: PlannedRecord[],
  reads: LinkReads,
): Promise<number[]> {
  if (!refs || refs.length === 0) return [];
  const taxonomy: Taxonomy = param === 'categories' ? 'tribe_events_cat' : 'post_tag';
  const existing = await reads.terms(taxonomy, refs.map(termRef));
  // Terms this body creates, so that a name given twice makes one term.
  const planned: Array<{ id: number; slug: string; name: string }> = [];
  const out: number[] = [];
  const unknownIds: string[] = [];
  for (const [i, ref] of refs.entries()) {
    const asNumber = typeof ref === 'number' ? ref : /^\d+$/.test(ref) ? Number(ref) : undefined;
    if (asNumber !== undefined) {
      if (existing[i]) out.push(asNumber);
      else unknownIds.push(String(ref));
      continue;
    }
    const name = plainText(String(ref));
    const found =
      existing[i] ??
      planned.find((t) => t.slug === slugKey(String(ref)) || t.name.toLowerCase() === name.toLowerCase());
    if (found) {
      out.push(found.id);
      continue;
    }
    if (!atLeast(user, 'editor'))
      throw invalidParam(
        param,
        `${param}: "${ref}" is not an existing term, and only editors may create terms.`,
        'rest_unknown_term',
      );
    const id = await nextTermId();
    const input = { taxonomy, name, slugBase: slugify(name), description: '', parent: 0 };
    created.push({
      kind: 'TERM',
      id,
      field: param,
      claim: { scope: { taxonomy }, base: input.slugBase || String(id) },
      build: (slug, counts, claim) =>
        newTermWrites(
          { ...newTerm(id, input, new Date().toISOString(), counts), slug },
          claim,
          () => new ResolveAgain(),
        ),
    });
    planned.push({ id, slug: input.slugBase, name });
    out.push(id);
  }
  if (unknownIds.length > 0)
    throw invalidParam(
      param,
      `${param} contains unknown IDs: ${unknownIds.join(', ')}.`,
      'rest_unknown_term',
    );
  return [...new Set(out)];
}

type Ref = number | string | Record<string, unknown>;

/** Flattens the accepted shapes of `venue` / `organizer`: ID, CSV, {id}, inline object, or arrays of them. */
function refsOf(input: unknown): Ref[] {
  if (input === null || input === undefined || input === '') return [];
  if (Array.isArray(input)) return input.flatMap(refsOf);
  if (typeof input === 'string')
    return input
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return [input as Ref];
}

/**
 * `venue` / `organizer` links: existing IDs (400 when unknown or trashed) and inline objects, which
 * reuse an equal record (an existing one, or one planned earlier in this body) or plan a new one.
 */
export async function resolveLinkedPosts(
  type: 'venue' | 'organizer',
  input: unknown,
  user: User,
  created: PlannedRecord[],
  reads: LinkReads,
): Promise<number[]> {
  const refs = refsOf(input);
  const ids: number[] = [];
  const field: LinkField = type;
  for (const [i, ref] of refs.entries()) {
    if (typeof ref === 'number' || (typeof ref === 'string' && /^\d+$/.test(ref))) ids.push(Number(ref));
    else if (typeof ref === 'string')
      throw invalidParam(
        type,
        `${type} must be IDs, {"id": N} objects or inline ${type} objects; got "${ref}".`,
        'rest_invalid_link',
      );
    else if (typeof ref === 'object' && ref !== null && 'id' in ref && Object.keys(ref).length === 1) {
      const id = Number(ref.id);
      if (!Number.isInteger(id) || id < 1)
        throw invalidParam(type, `${type}[${i}].id must be a positive integer.`, 'rest_invalid_link');
      ids.push(id);
    } else {
      const planned = created.flatMap((c) => (c.post?.type === type ? [c.post] : []));
      // Inline records (and their body validators, ~20 KB) load with the first body that has one.
      const { resolveInline } = await import('../../linked/inline');
      const found = await resolveInline(
        type,
        ref as Record<string, unknown>,
        user,
        `${type}${refs.length > 1 ? `[${i}]` : ''}`,
        planned,
      );
      if ('id' in found) {
        ids.push(found.id);
        continue;
      }
      const record = found.record;
      created.push({
        kind: type === 'venue' ? 'VENUE' : 'ORGANIZER',
        id: record.id,
        field,
        claim: { scope: { type }, base: found.slugBase || String(record.id) },
        post: record,
        build: (slug, counts, claim) =>
          newPostWrites({ ...record, slug, countPublic: counts.p, countAll: counts.a }, claim),
      });
      ids.push(record.id);
    }
  }
  const unique = [...new Set(ids)];
  const fresh = new Set(created.map((c) => c.id));
  const existing = unique.filter((id) => !fresh.has(id));
  assertLinkable(type, existing, await reads.posts(existing));
  return unique;
}

/**
 * The 400s of resolveTerms / resolveLinkedPosts that need no write: unknown term IDs, names a
 * non-editor may not create, unknown or trashed venue / organizer IDs, inline records without a
 * name. Run for every link parameter before any of them creates a term or an inline record, so a
 * refused request changes nothing. The parameters are looked up together; the first of them in
 * body order (categories, tags, venue, organizer) that is refused decides the 400.
 */
export async function checkLinks(
  body: { categories?: unknown; tags?: unknown; venue?: unknown; organizer?: unknown },
  sent: Set<string>,
  user: User,
  reads: LinkReads,
): Promise<void> {
  const outcomes = await Promise.allSettled([
    ...(['categories', 'tags'] as const).map((param) => checkTerms(param, body, sent, user, reads)),
    ...(['venue', 'organizer'] as const).map((type) => checkPosts(type, body, sent, reads)),
  ]);
  for (const o of outcomes) if (o.status === 'rejected') throw o.reason;
}

async function checkTerms(
  param: 'categories' | 'tags',
  body: { categories?: unknown; tags?: unknown },
  sent: Set<string>,
  user: User,
  reads: LinkReads,
): Promise<void> {
  const refs = sent.has(param) ? (body[param] as Array<number | string> | null | undefined) : undefined;
  if (!refs || refs.length === 0) return;
  const terms = await reads.terms(
    param === 'categories' ? 'tribe_events_cat' : 'post_tag',
    refs.map(termRef),
  );
  const numeric = (ref: number | string) => typeof ref === 'number' || /^\d+$/.test(ref);
  const unknownIds = refs.filter((ref, i) => numeric(ref) && !terms[i]);
  const newName = refs.find((ref, i) => !numeric(ref) && !terms[i]);
  if (newName !== undefined && !atLeast(user, 'editor'))
    throw invalidParam(
      param,
      `${param}: "${newName}" is not an existing term, and only editors may create terms.`,
      'rest_unknown_term',
    );
  if (unknownIds.length > 0)
    throw invalidParam(
      param,
      `${param} contains unknown IDs: ${unknownIds.join(', ')}.`,
      'rest_unknown_term',
    );
}

async function checkPosts(
  type: 'venue' | 'organizer',
  body: { venue?: unknown; organizer?: unknown },
  sent: Set<string>,
  reads: LinkReads,
): Promise<void> {
  if (!sent.has(type)) return;
  const refs = refsOf(body[type]);
  const ids: number[] = [];
  for (const [i, ref] of refs.entries()) {
    if (typeof ref === 'number' || (typeof ref === 'string' && /^\d+$/.test(ref))) ids.push(Number(ref));
    else if (typeof ref === 'object' && ref !== null && 'id' in ref && Object.keys(ref).length === 1) {
      if (Number.isInteger(Number(ref.id)) && Number(ref.id) > 0) ids.push(Number(ref.id));
    } else if (typeof ref === 'object' && ref !== null && !(type in ref))
      throw invalidParam(
        type,
        `${type}${refs.length > 1 ? `[${i}]` : ''}.${type} is required.`,
        'rest_missing_property',
      );
  }
  const unique = [...new Set(ids)];
  assertLinkable(type, unique, await reads.posts(unique));
}
