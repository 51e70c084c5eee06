import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { termExists } from '../domain/errors';
import type { Taxonomy, TermRecord } from '../domain/records';
import { ddb, tableName } from '../db/client';
import { nextId } from '../db/ids';
import { keys } from '../db/keys';
import { queryIndex } from '../db/query';
import { commit, type Write } from '../db/transact';
import { commitWithUniqueSlug } from './slug-claims';

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

function toItem(t: TermRecord) {
  return { ...keys.term(t.id), ...keys.termIndex(t.taxonomy, t.slug), type: 'term', ...t };
}

export async function getTerm(id: number): Promise<TermRecord | undefined> {
  const out = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: keys.term(id), ConsistentRead: true }),
  );
  return out.Item ? fromTermItem(out.Item) : undefined;
}

/** Every term of a taxonomy, in slug order: taxonomies are small, and lists sort and count in memory. */
export async function listTerms(taxonomy: Taxonomy): Promise<TermRecord[]> {
  const out: TermRecord[] = [];
  for await (const item of queryIndex({ index: 'bySlug', partition: keys.taxonomyPartition(taxonomy) }))
    out.push(fromTermItem(item));
  return out;
}

const putGuard = (key: { pk: string; sk: string }, id: number): Write['item'] => ({
  Put: { TableName: tableName(), Item: { ...key, id }, ConditionExpression: 'attribute_not_exists(pk)' },
});
const deleteGuard = (key: { pk: string; sk: string }): Write['item'] => ({
  Delete: { TableName: tableName(), Key: key },
});

async function nameTaken(taxonomy: Taxonomy, name: string): Promise<Error> {
  const out = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: keys.termNameGuard(taxonomy, name) }),
  );
  return termExists(Number(out.Item?.id ?? 0));
}

/** Conditions shared by create and update: the parent must still exist when the write lands. */
const parentCheck = (parent: number): Write[] =>
  parent > 0
    ? [
        {
          item: {
            ConditionCheck: {
              TableName: tableName(),
              Key: keys.term(parent),
              ConditionExpression: 'attribute_exists(pk)',
            },
          },
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

/** Creates a term with a unique slug; a duplicate name in the taxonomy is a 400 `term_exists`. */
export async function createTerm(
  input: TermInput,
  now: string,
  parentGone: () => Error,
): Promise<TermRecord> {
  const id = await nextId('term');
  const base: Omit<TermRecord, 'slug'> = {
    id,
    taxonomy: input.taxonomy,
    name: input.name,
    description: input.description,
    parent: input.parent,
    countPublic: 0,
    countAll: 0,
    created: now,
    modified: now,
    version: 1,
  };
  const slug = await commitWithUniqueSlug({ taxonomy: input.taxonomy }, input.slugBase || String(id), (s) => [
    {
      item: {
        Put: {
          TableName: tableName(),
          Item: toItem({ ...base, slug: s }),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
    {
      item: putGuard(keys.termNameGuard(input.taxonomy, input.name), id),
      onConflict: () => nameTaken(input.taxonomy, input.name),
    },
    { item: putGuard(keys.slugGuard(input.taxonomy, s), id), onConflict: 'slug' },
    ...parentCheck(input.parent).map((w) => ({ ...w, onConflict: parentGone })),
  ]);
  return { ...base, slug };
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
  const build = (slug: string): Write[] => {
    const record = { ...next, slug };
    const writes: Write[] = [
      {
        item: {
          Update: {
            TableName: tableName(),
            Key: keys.term(current.id),
            // Only the editable fields: counts belong to event writes and must not be overwritten here.
            UpdateExpression:
              'SET #name = :name, slug = :slug, gsi1sk = :slug, description = :d, parent = :p, modified = :m, version = :next',
            ConditionExpression: 'version = :v',
            ExpressionAttributeNames: { '#name': 'name' },
            ExpressionAttributeValues: {
              ':name': record.name,
              ':slug': slug,
              ':d': record.description,
              ':p': record.parent,
              ':m': now,
              ':next': record.version,
              ':v': current.version,
            },
          },
        },
        onConflict: errorsFor.stale,
      },
    ];
    if (renamed) {
      writes.push({ item: deleteGuard(keys.termNameGuard(current.taxonomy, current.name)) });
      writes.push({
        item: putGuard(keys.termNameGuard(current.taxonomy, next.name), current.id),
        onConflict: () => nameTaken(current.taxonomy, next.name),
      });
    }
    if (slug !== current.slug) {
      writes.push({ item: deleteGuard(keys.slugGuard(current.taxonomy, current.slug)) });
      writes.push({ item: putGuard(keys.slugGuard(current.taxonomy, slug), current.id), onConflict: 'slug' });
    }
    if (changes.parent !== undefined && changes.parent !== current.parent)
      writes.push(...parentCheck(changes.parent).map((w) => ({ ...w, onConflict: errorsFor.parentGone })));
    return writes;
  };
  if (changes.slugBase === undefined || changes.slugBase === current.slug) {
    await commit(build(current.slug));
    return next;
  }
  const slug = await commitWithUniqueSlug({ taxonomy: current.taxonomy }, changes.slugBase, build);
  return { ...next, slug };
}

/**
 * Deletes a term permanently with its guards; its children move up to its parent in the same
 * transaction, as WordPress does, and `extra` (unlinking it from its events) lands with it.
 */
export async function deleteTerm(
  term: TermRecord,
  children: TermRecord[],
  now: string,
  stale: () => Error,
  extra: Write[] = [],
): Promise<void> {
  await commit([
    ...extra,
    {
      item: {
        Delete: {
          TableName: tableName(),
          Key: keys.term(term.id),
          ConditionExpression: 'version = :v',
          ExpressionAttributeValues: { ':v': term.version },
        },
      },
      onConflict: stale,
    },
    { item: deleteGuard(keys.termNameGuard(term.taxonomy, term.name)) },
    { item: deleteGuard(keys.slugGuard(term.taxonomy, term.slug)) },
    ...children.map((c) => ({
      item: {
        Update: {
          TableName: tableName(),
          Key: keys.term(c.id),
          UpdateExpression: 'SET parent = :p, modified = :m, version = version + :one',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':p': term.parent, ':m': now, ':one': 1 },
        },
      },
    })),
  ]);
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
