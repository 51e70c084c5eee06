import { LIMITS, idOrSlug, list, nonEmptyText, paging, text } from './common';

const urls = {
  type: 'object',
  properties: { self: { type: 'string' }, collection: { type: 'string' }, up: { type: 'string' } },
  required: ['self', 'collection'],
  additionalProperties: false,
} as const;

const parentOut = { parent: { type: 'integer', minimum: 0 } } as const;

/** A category or tag as the term routes return it (reference §3.4 (b)/(c)). */
export const termSchema = (hierarchical: boolean) =>
  ({
    type: 'object',
    properties: {
      id: { type: 'integer' },
      count: { type: 'integer', minimum: 0 },
      description: { type: 'string' },
      name: { type: 'string' },
      slug: { type: 'string' },
      taxonomy: { type: 'string', enum: ['tribe_events_cat', 'post_tag'] },
      ...(hierarchical ? parentOut : {}),
      meta: { type: 'array', maxItems: 0 },
      url: { type: 'string' },
      urls,
    },
    required: ['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'meta', 'url', 'urls'],
    additionalProperties: false,
  }) as const;

/** A term embedded in an event (reference §3.4 (a)). */
export const embeddedTermSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    slug: { type: 'string' },
    term_group: { type: 'integer' },
    term_taxonomy_id: { type: 'integer' },
    taxonomy: { type: 'string' },
    description: { type: 'string' },
    parent: { type: 'integer' },
    count: { type: 'integer' },
    filter: { type: 'string' },
    id: { type: 'integer' },
    urls,
  },
  required: ['name', 'slug', 'taxonomy', 'description', 'parent', 'count', 'id', 'urls'],
} as const;

const termFields = {
  name: nonEmptyText('The term name.', LIMITS.name),
  description: text('The term description.'),
  slug: nonEmptyText(
    "The term slug; generated from the name when absent. WordPress's rule (decisions §9), cut to 200 characters.",
  ),
} as const;

const parentField = {
  parent: { type: 'integer', minimum: 0, description: 'The parent category ID; 0 for a top-level category.' },
} as const;

// Each factory returns one of two literal schemas (not a schema with a conditional inside), so the
// request types inferred from them keep `parent` typed.
export const categoryCreateBody = {
  type: 'object',
  properties: { ...termFields, ...parentField },
  required: ['name'],
} as const;
const tagCreateBody = { type: 'object', properties: termFields, required: ['name'] } as const;
export const categoryUpdateBody = { type: 'object', properties: { ...termFields, ...parentField } } as const;
const tagUpdateBody = { type: 'object', properties: termFields } as const;

export const termCreateBody = (hierarchical: boolean) => (hierarchical ? categoryCreateBody : tagCreateBody);
export const termUpdateBody = (hierarchical: boolean) => (hierarchical ? categoryUpdateBody : tagUpdateBody);

const listParams = {
  ...paging,
  search: nonEmptyText('Limit results to terms whose name or slug contains the string.'),
  exclude: list(idOrSlug, 'Exclude these term IDs or slugs.'),
  include: list(idOrSlug, 'Limit results to these term IDs or slugs.'),
  order: { type: 'string', enum: ['asc', 'desc'], description: 'Sort direction.' },
  orderby: {
    type: 'string',
    enum: ['id', 'name', 'slug', 'count', 'description', 'parent', 'include', 'term_group'],
    description: 'Term attribute to sort by (default name).',
  },
  hide_empty: {
    type: 'boolean',
    default: true,
    description: 'Hide terms not assigned to any visible event.',
  },
  post: { type: 'integer', minimum: 1, description: 'Only terms assigned to this event.' },
  event: { type: 'integer', minimum: 1, description: 'Alias of post; wins over it.' },
  slug: nonEmptyText('Only terms with this slug.', 200),
} as const;

const parentFilter = {
  parent: { type: 'integer', minimum: 0, description: 'Only children of this category (0: top level).' },
} as const;

export const categoryListQuery = { type: 'object', properties: { ...listParams, ...parentFilter } } as const;
const tagListQuery = { type: 'object', properties: listParams } as const;

export const termListQuery = (hierarchical: boolean) => (hierarchical ? categoryListQuery : tagListQuery);
