import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createdThenDeleted, termExists } from '../domain/errors';
import type { Taxonomy, TermRecord } from '../domain/records';
import { patterns } from '../db/access-patterns';
import { ddb, tableName } from '../db/client';
import { nextId } from '../db/ids';
import { type Key, keys, STATUS_SHARDS } from '../db/keys';
import { batchGet, type IndexQuery, queryIndex } from '../db/query';
import { termSortName } from '../domain/term-order';
import { addWrite, commit, type PlannedWrite, type WriteItem } from '../db/transact';
import { AlreadyCreated, type CreationKey, creationGuard } from './creations';
import { termChange } from './changes';
import { commitWithSlugs } from './slug-claims';

export type { TermRecord };

const STORED = [
  'id',
  'taxonomy',
  'name',
  'slug',
  'description',
  'parent',
  'countPublic',
  'countAll',
  'created',
  'modified',
  'version',
] as const;

export function fromTermItem(item: Record<string, unknown>): TermRecord {
  const out: Record<string, unknown> = {};
  for (const k of STORED) out[k] = item[k];
  return out as unknown as TermRecord;
}

/** A term's place in its taxonomy's name order (byStart), or nothing when its name has none. */
export function termNameKeys(t: Pick<TermRecord, 'taxonomy' | 'name' | 'id'>) {
  const sortName = termSortName(t.name);
  return sortName === undefined ? undefined : keys.termNameIndex(t.taxonomy, sortName, t.id);
}

/** 1 when a term's name cannot be placed in the name order: such a taxonomy lists by full read. */
export const unordered = (name: string) => (termSortName(name) === undefined ? 1 : 0);

export function toTermItem(t: TermRecord) {
  return {
    ...keys.term(t.id),
    ...keys.termIndex(t.taxonomy, t.slug),
    ...termNameKeys(t),
    type: 'term',
    ...t,
  };
}

const addTotals = (taxonomy: Taxonomy, shard: number, terms: number, unorderedTerms: number) =>
  addWrite(tableName(), keys.termTotals(taxonomy, shard), { terms, unordered: unorderedTerms });

/** Changes a taxonomy's totals in the transaction of the term write that changes them. */
export function termTotalsWrite(taxonomy: Taxonomy, terms: number, unorderedTerms: number): PlannedWrite[] {
  if (terms === 0 && unorderedTerms === 0) return [];
  const shard = Math.floor(Math.random() * STATUS_SHARDS);
  return [
    {
      ...addTotals(taxonomy, shard, terms, unorderedTerms),
      undo: addTotals(taxonomy, shard, -terms, -unorderedTerms).item,
    },
  ];
}

export interface TermTotals {
  terms: number;
  /** Terms without a sort name. */
  unordered: number;
  /** Terms in use, by the public count and by the count editors see (repositories/term-use.ts). */
  inUsePublic: number;
  inUseAll: number;
}

/** A taxonomy's totals: one BatchGet of the shards. */
export async function termTotals(taxonomy: Taxonomy): Promise<TermTotals> {
  const shards = await batchGet(
    Array.from({ length: STATUS_SHARDS }, (_, i) => keys.termTotals(taxonomy, i)),
    true,
  );
  const out: TermTotals = { terms: 0, unordered: 0, inUsePublic: 0, inUseAll: 0 };
  for (const item of shards.values())
    for (const k of Object.keys(out) as Array<keyof TermTotals>) out[k] += Number(item[k] ?? 0);
  return out;
}

/** The first `limit` terms of one name-ordered pattern's partition (ties by ID), tombstoned ones left out. */
export async function termsInNameOrder(
  inOrder: Omit<IndexQuery, 'pageSize'>,
  limit: number,
  descending = false,
): Promise<TermRecord[]> {
  const out: TermRecord[] = [];
  if (limit <= 0) return out;
  for await (const item of queryIndex({ ...inOrder, descending, pageSize: limit })) {
    if (!isDeletingTerm(item)) out.push(fromTermItem(item));
    if (out.length >= limit) break;
  }
  return out;
}

/** The first `limit` terms of a taxonomy in name order (ties by ID), from the name index. */
export const termsByName = (taxonomy: Taxonomy, limit: number, descending = false) =>
  termsInNameOrder(patterns.termsByName.query(taxonomy), limit, descending);

export const isDeletingTerm = (item: Record<string, unknown>) => item.deleting !== undefined;

async function getTermItem(id: number) {
  const out = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: keys.term(id), ConsistentRead: true }),
  );
  return out.Item;
}

export async function getTerm(id: number): Promise<TermRecord | undefined> {
  const item = await getTermItem(id);
  return item && !isDeletingTerm(item) ? fromTermItem(item) : undefined;
}

/** A term whose permanent delete began and did not finish: the delete that resumes it needs it. */
export async function getTermBeingDeleted(id: number): Promise<TermRecord | undefined> {
  const item = await getTermItem(id);
  return item && isDeletingTerm(item) ? fromTermItem(item) : undefined;
}

/** Every term of a taxonomy, in slug order: taxonomies are small, and lists sort and count in memory. */
export async function listTerms(taxonomy: Taxonomy): Promise<TermRecord[]> {
  const out: TermRecord[] = [];
  for await (const item of queryIndex(patterns.termsOfTaxonomy.query(taxonomy)))
    if (!isDeletingTerm(item)) out.push(fromTermItem(item));
  return out;
}

const putGuard = (key: Key, id: number): WriteItem => ({
  Put: { TableName: tableName(), Item: { ...key, id }, ConditionExpression: 'attribute_not_exists(pk)' },
});
const deleteGuard = (key: Key): WriteItem => ({ Delete: { TableName: tableName(), Key: key } });

async function nameTaken(taxonomy: Taxonomy, name: string): Promise<Error> {
  const out = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: keys.termNameGuard(taxonomy, name) }),
  );
  return termExists(Number(out.Item?.id ?? 0));
}

/** Conditions shared by create and update: the parent must still exist when the write lands. */
const parentCheck = (parent: number, parentGone: () => Error): PlannedWrite[] =>
  parent > 0
    ? [
        {
          item: {
            ConditionCheck: {
              TableName: tableName(),
              Key: keys.term(parent),
              ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleting)',
            },
          },
          onConflict: parentGone,
        },
      ]
    : [];

export interface TermInput {
  taxonomy: Taxonomy;
  name: string;
  slugBase: string;
  description: string;
  parent: number;
}

/** IDs of the term sequence, for terms created inside an event's write. */
export const nextTermId = () => nextId('term');

/** A new term's record as stored (counts start at what the write that creates it links). */
export function newTerm(
  id: number,
  input: TermInput,
  now: string,
  counts = { p: 0, a: 0 },
): Omit<TermRecord, 'slug'> {
  return {
    id,
    taxonomy: input.taxonomy,
    name: input.name,
    description: input.description,
    parent: input.parent,
    countPublic: counts.p,
    countAll: counts.a,
    created: now,
    modified: now,
    version: 1,
  };
}

/**
 * The items of a new term with slug claim number `claim`: its record, its name guard (a duplicate
 * name is `nameConflict`) and its slug guard.
 */
export function newTermWrites(
  term: TermRecord,
  claim: number,
  nameConflict?: () => Error | Promise<Error>,
): PlannedWrite[] {
  const nameGuard = keys.termNameGuard(term.taxonomy, term.name);
  const slugGuard = keys.slugGuard(term.taxonomy, term.slug);
  return [
    {
      item: {
        Put: {
          TableName: tableName(),
          Item: toTermItem(term),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      undo: deleteGuard(keys.term(term.id)),
    },
    {
      item: putGuard(nameGuard, term.id),
      onConflict: nameConflict ?? (() => nameTaken(term.taxonomy, term.name)),
      undo: deleteGuard(nameGuard),
    },
    { item: putGuard(slugGuard, term.id), onConflict: { claim }, undo: deleteGuard(slugGuard) },
    ...termTotalsWrite(term.taxonomy, 1, unordered(term.name)),
    termChange(undefined, term),
  ];
}

/**
 * Creates a term with a unique slug; a duplicate name in the taxonomy is a 400 `term_exists`. With
 * `creation` (an Idempotency-Key) it creates at most once: a repeat returns the term created first.
 */
export async function createTerm(
  input: TermInput,
  now: string,
  parentGone: () => Error,
  creation?: CreationKey,
): Promise<TermRecord> {
  const base = newTerm(await nextTermId(), input, now);
  try {
    const [slug] = await commitWithSlugs(
      [{ scope: { taxonomy: input.taxonomy }, base: input.slugBase || String(base.id) }],
      ([s]) => [
        ...newTermWrites({ ...base, slug: s! }, 0),
        ...parentCheck(input.parent, parentGone),
        ...creationGuard(creation, base.id),
      ],
      commit,
    );
    return { ...base, slug: slug! };
  } catch (e) {
    if (!(e instanceof AlreadyCreated)) throw e;
    const first = await getTerm(e.id);
    if (!first) throw createdThenDeleted(input.taxonomy === 'post_tag' ? 'tag' : 'category', e.id);
    return first;
  }
}

export type TermChanges = Partial<Pick<TermRecord, 'name' | 'description' | 'parent'>> & {
  slugBase?: string;
};

/** Applies a partial update; the version condition makes concurrent updates fail instead of interleave. */
export async function updateTerm(
  current: TermRecord,
  changes: TermChanges,
  now: string,
  errorsFor: { stale: () => Error; parentGone: () => Error },
): Promise<TermRecord> {
  const next: TermRecord = {
    ...current,
    ...stripUndefined(changes),
    modified: now,
    version: current.version + 1,
  } as TermRecord;
  delete (next as Partial<TermChanges>).slugBase;
  const renamed = changes.name !== undefined && changes.name.toLowerCase() !== current.name.toLowerCase();
  const slugRenamed = changes.slugBase !== undefined && changes.slugBase !== current.slug;
  const [slug] = await commitWithSlugs(
    [
      {
        scope: { taxonomy: current.taxonomy },
        base: slugRenamed ? changes.slugBase! : current.slug,
        exact: true,
      },
    ],
    ([slug]) => {
      // The name order moves with the name: a name the order cannot place leaves it (and counts as unordered).
      const nameKeys = termNameKeys(next);
      // So do the in-use orders (repositories/term-use.ts), whose membership is their partition key's.
      const nameIndex = nameKeys
        ? ', gsi2pk = :g2pk, gsi2sk = :g2sk, gsi3sk = :g2sk, gsi4sk = :g2sk'
        : ' REMOVE gsi2pk, gsi2sk, gsi3sk, gsi4sk';
      const writes: PlannedWrite[] = [
        {
          item: {
            Update: {
              TableName: tableName(),
              Key: keys.term(current.id),
              // Only the editable fields: counts belong to event writes and must not be overwritten here.
              UpdateExpression:
                'SET #name = :name, slug = :slug, gsi1sk = :slug, description = :d, parent = :p, modified = :m, version = :next' +
                nameIndex,
              ConditionExpression: 'version = :v AND attribute_not_exists(deleting)',
              ExpressionAttributeNames: { '#name': 'name' },
              ExpressionAttributeValues: {
                ':name': next.name,
                ':slug': slug,
                ':d': next.description,
                ':p': next.parent,
                ':m': now,
                ':next': next.version,
                ':v': current.version,
                ...(nameKeys ? { ':g2pk': nameKeys.gsi2pk, ':g2sk': nameKeys.gsi2sk } : {}),
              },
            },
          },
          onConflict: errorsFor.stale,
        },
        termChange(current, next),
        ...termTotalsWrite(current.taxonomy, 0, unordered(next.name) - unordered(current.name)),
      ];
      if (renamed) {
        writes.push({ item: deleteGuard(keys.termNameGuard(current.taxonomy, current.name)) });
        writes.push({
          item: putGuard(keys.termNameGuard(current.taxonomy, next.name), current.id),
          onConflict: () => nameTaken(current.taxonomy, next.name),
        });
      }
      if (slugRenamed) {
        writes.push({ item: deleteGuard(keys.slugGuard(current.taxonomy, current.slug)) });
        writes.push({
          item: putGuard(keys.slugGuard(current.taxonomy, slug!), current.id),
          onConflict: { claim: 0 },
        });
      }
      if (changes.parent !== undefined && changes.parent !== current.parent)
        writes.push(...parentCheck(changes.parent, errorsFor.parentGone));
      return writes;
    },
    commit,
  );
  return { ...next, slug: slug! };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
