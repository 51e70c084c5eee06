import { idPath, listEnvelope, slugPath } from '../schemas/common';
import { CONDITIONAL_WRITE_ERRORS, CREATE_ERRORS, errors, READ_ERRORS, unchanged } from './responses';
import type { ObjectSchema, Operation } from './types';

const deleteQuery = {
  type: 'object',
  properties: {
    force: {
      type: 'boolean',
      default: false,
      description: 'Delete permanently instead of moving to the trash (editors).',
    },
  },
} as const;

interface PostSchemas<
  I extends object,
  L extends ObjectSchema,
  C extends ObjectSchema,
  U extends ObjectSchema,
  S extends ObjectSchema,
> {
  /** Plural route segment and body key of lists: `events`, `venues`, `organizers`. */
  collection: string;
  /** Singular name used in operation IDs and handler files: `event`. */
  one: string;
  item: I;
  listQuery: L;
  createBody: C;
  updateBody: U;
  /** Body of updates by slug (venues and organizers require `slug` there, spec §4.1 rule 5). */
  updateBySlugBody: S;
}

/**
 * The eight operations of a post route family (list, create, and read / update / delete by ID and by
 * slug). Events, venues and organizers differ only in their schemas.
 */
export function postOperations<
  I extends object,
  L extends ObjectSchema,
  C extends ObjectSchema,
  U extends ObjectSchema,
  S extends ObjectSchema,
>(s: PostSchemas<I, L, C, U, S>) {
  const Plural = s.collection[0]!.toUpperCase() + s.collection.slice(1);
  const One = s.one[0]!.toUpperCase() + s.one.slice(1);
  const dir = `functions/${s.collection}`;
  const base = `/${s.collection}`;
  const ok = (description: string) => ({ description, schema: s.item });
  return {
    list: {
      operationId: `list${Plural}`,
      methods: ['GET'],
      path: base,
      handler: `${dir}/list-${s.collection}`,
      summary: `List ${s.collection}`,
      access: 'public',
      readOnly: true,
      query: s.listQuery,
      responses: {
        200: { description: `A page of ${s.collection}.`, schema: listEnvelope(s.collection, s.item) },
        ...unchanged(),
        ...errors(...READ_ERRORS, 404),
      },
    },
    create: {
      operationId: `create${One}`,
      methods: ['POST'],
      path: base,
      handler: `${dir}/create-${s.one}`,
      summary: `Create ${s.one === 'event' ? 'an' : 'a'} ${s.one}`,
      access: 'contributor',
      readOnly: false,
      body: s.createBody,
      responses: { 201: ok(`The new ${s.one}.`), ...errors(...CREATE_ERRORS) },
    },
    get: {
      operationId: `get${One}`,
      methods: ['GET'],
      path: `${base}/{id}`,
      handler: `${dir}/get-${s.one}`,
      summary: `Read ${s.one === 'event' ? 'an' : 'a'} ${s.one} by ID`,
      access: 'public',
      readOnly: true,
      pathParams: idPath,
      responses: {
        200: ok(`The ${s.one}, with json_ld.`),
        ...unchanged(),
        ...errors(...READ_ERRORS, 403, 404),
      },
    },
    update: {
      operationId: `update${One}`,
      methods: ['POST', 'PUT', 'PATCH'],
      path: `${base}/{id}`,
      handler: `${dir}/update-${s.one}`,
      summary: `Update ${s.one === 'event' ? 'an' : 'a'} ${s.one} by ID (partial)`,
      access: 'contributor',
      readOnly: false,
      pathParams: idPath,
      body: s.updateBody,
      responses: { 200: ok(`The updated ${s.one}.`), ...errors(...CONDITIONAL_WRITE_ERRORS, 404, 409) },
    },
    delete: {
      operationId: `delete${One}`,
      methods: ['DELETE'],
      path: `${base}/{id}`,
      handler: `${dir}/delete-${s.one}`,
      summary: `Move ${s.one === 'event' ? 'an' : 'a'} ${s.one} to the trash, or delete it with force`,
      access: 'contributor',
      readOnly: false,
      pathParams: idPath,
      query: deleteQuery,
      responses: {
        200: ok(`The trashed (or deleted) ${s.one}.`),
        ...errors(...CONDITIONAL_WRITE_ERRORS, 404, 409, 410),
      },
    },
    getBySlug: {
      operationId: `get${One}BySlug`,
      methods: ['GET'],
      path: `${base}/by-slug/{slug}`,
      handler: `${dir}/get-${s.one}-by-slug`,
      summary: `Read ${s.one === 'event' ? 'an' : 'a'} ${s.one} by slug`,
      access: 'public',
      readOnly: true,
      pathParams: slugPath,
      responses: {
        200: ok(`The ${s.one}, with json_ld.`),
        ...unchanged(),
        ...errors(...READ_ERRORS, 403, 404),
      },
    },
    updateBySlug: {
      operationId: `update${One}BySlug`,
      methods: ['POST', 'PUT', 'PATCH'],
      path: `${base}/by-slug/{slug}`,
      handler: `${dir}/update-${s.one}-by-slug`,
      summary: `Update ${s.one === 'event' ? 'an' : 'a'} ${s.one} by slug (partial)`,
      access: 'contributor',
      readOnly: false,
      pathParams: slugPath,
      body: s.updateBySlugBody,
      responses: { 200: ok(`The updated ${s.one}.`), ...errors(...CONDITIONAL_WRITE_ERRORS, 404, 409) },
    },
    deleteBySlug: {
      operationId: `delete${One}BySlug`,
      methods: ['DELETE'],
      path: `${base}/by-slug/{slug}`,
      handler: `${dir}/delete-${s.one}-by-slug`,
      summary: `Move ${s.one === 'event' ? 'an' : 'a'} ${s.one} to the trash by slug, or delete it with force`,
      access: 'contributor',
      readOnly: false,
      pathParams: slugPath,
      query: deleteQuery,
      responses: {
        200: ok(`The trashed (or deleted) ${s.one}.`),
        ...errors(...CONDITIONAL_WRITE_ERRORS, 404, 409, 410),
      },
    },
  } as const satisfies Record<string, Operation>;
}
