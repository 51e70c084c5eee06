import { idPath, listEnvelope } from '../schemas/common';
import { termCreateBody, termListQuery, termSchema, termUpdateBody } from '../schemas/term';
import { CONDITIONAL_WRITE_ERRORS, CREATE_ERRORS, errors, READ_ERRORS, unchanged } from './responses';
import type { Operation } from './types';

/** The five operations of a taxonomy route family; categories and tags differ only by hierarchy. */
function termOperations<H extends boolean>(collection: 'categories' | 'tags', one: string, hierarchical: H) {
  const Plural = collection[0]!.toUpperCase() + collection.slice(1);
  const One = one[0]!.toUpperCase() + one.slice(1);
  const term = termSchema(hierarchical);
  const dir = `functions/${collection}`;
  return {
    list: {
      operationId: `list${Plural}`,
      methods: ['GET'],
      path: `/${collection}`,
      handler: `${dir}/list-${collection}`,
      summary: `List event ${collection}`,
      access: 'public',
      readOnly: true,
      query: termListQuery(hierarchical),
      responses: {
        200: { description: `A page of ${collection}.`, schema: listEnvelope(collection, term) },
        ...unchanged(),
        ...errors(...READ_ERRORS),
      },
    },
    create: {
      operationId: `create${One}`,
      methods: ['POST'],
      path: `/${collection}`,
      handler: `${dir}/create-${one}`,
      summary: `Create an event ${one}`,
      access: 'editor',
      readOnly: false,
      body: termCreateBody(hierarchical),
      responses: { 201: { description: `The new ${one}.`, schema: term }, ...errors(...CREATE_ERRORS) },
    },
    get: {
      operationId: `get${One}`,
      methods: ['GET'],
      path: `/${collection}/{id}`,
      handler: `${dir}/get-${one}`,
      summary: `Read an event ${one}`,
      access: 'public',
      readOnly: true,
      pathParams: idPath,
      responses: {
        200: { description: `The ${one}.`, schema: term },
        ...unchanged(),
        ...errors(...READ_ERRORS, 404),
      },
    },
    update: {
      operationId: `update${One}`,
      methods: ['POST', 'PUT', 'PATCH'],
      path: `/${collection}/{id}`,
      handler: `${dir}/update-${one}`,
      summary: `Update an event ${one} (partial)`,
      access: 'editor',
      readOnly: false,
      pathParams: idPath,
      body: termUpdateBody(hierarchical),
      responses: {
        200: { description: `The updated ${one}.`, schema: term },
        ...errors(...CONDITIONAL_WRITE_ERRORS, 404, 409),
      },
    },
    delete: {
      operationId: `delete${One}`,
      methods: ['DELETE'],
      path: `/${collection}/{id}`,
      handler: `${dir}/delete-${one}`,
      summary: `Delete an event ${one} permanently`,
      access: 'editor',
      readOnly: false,
      pathParams: idPath,
      responses: {
        200: { description: `The deleted ${one}.`, schema: term },
        ...errors(...CONDITIONAL_WRITE_ERRORS, 404, 409),
      },
    },
  } as const satisfies Record<string, Operation>;
}

export const categoryOps = termOperations('categories', 'category', true);
export const tagOps = termOperations('tags', 'tag', false);
