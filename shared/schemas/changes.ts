import { CHANGE_ACTIONS, CHANGE_RESOURCES } from '../domain/changes';

/** Schemas of the change feed, GET /changes. */

export const CHANGES_PER_PAGE = { default: 100, maximum: 500 } as const;

export const changesQuery = {
  type: 'object',
  properties: {
    since: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description:
        'The next_cursor of the previous page. Without it the feed starts at the beginning of the retained history (35 days).',
    },
    per_page: {
      type: 'integer',
      minimum: 1,
      maximum: CHANGES_PER_PAGE.maximum,
      default: CHANGES_PER_PAGE.default,
      description: `Log entries read for this page (1 to ${CHANGES_PER_PAGE.maximum}); the page lists those of them the caller may see.`,
    },
  },
} as const;

export const changeSchema = {
  type: 'object',
  properties: {
    resource: { type: 'string', enum: CHANGE_RESOURCES, description: 'The collection of the record.' },
    id: { type: 'integer', minimum: 0, description: 'The record ID.' },
    action: {
      type: 'string',
      enum: CHANGE_ACTIONS,
      description:
        'created or restored: the record entered the caller’s view (fetch rest_url); updated: it changed; removed: it left the caller’s view (trashed, unpublished, hidden or deleted).',
    },
    modified_utc: { type: 'string', description: 'When the change happened, UTC (Y-m-d H:i:s).' },
    rest_url: { type: 'string', description: 'The record’s URL in this API.' },
  },
  required: ['resource', 'id', 'action', 'modified_utc', 'rest_url'],
  additionalProperties: false,
} as const;

export const changePage = {
  type: 'object',
  properties: {
    changes: { type: 'array', items: changeSchema, description: 'Changes, oldest first.' },
    next_cursor: {
      type: 'string',
      description: 'Send as since to read on; valid while it is younger than 35 days.',
    },
    has_more: {
      type: 'boolean',
      description: 'More changes can be read at once; false: the caller is up to date, poll again later.',
    },
  },
  required: ['changes', 'next_cursor', 'has_more'],
  additionalProperties: false,
} as const;
