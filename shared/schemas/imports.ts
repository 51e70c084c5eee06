import { idPath } from './common';

/** Schemas of the feed and CSV imports (docs/import-export.md): editors and administrators. */

export const IMPORT_STATUSES = ['publish', 'draft', 'pending', 'private'] as const;

const url = {
  type: 'string',
  minLength: 1,
  maxLength: 2000,
  description:
    'An iCalendar (.ics) feed to import and re-sync: https only, on the public internet (the local stack also takes http and localhost).',
} as const;

const categories = {
  type: 'array',
  items: { type: 'string', minLength: 1, maxLength: 200 },
  maxItems: 20,
  description: 'Category names every imported event gets (an unknown one is created).',
} as const;

const status = {
  type: 'string',
  enum: IMPORT_STATUSES,
  description: 'Status of the imported events (publish by default).',
} as const;

const resync = {
  type: ['integer', 'null'],
  minimum: 5,
  maximum: 10080,
  description:
    'Fetch the feed again every so many minutes (5 to 10080); null or absent: never. Only with url.',
} as const;

export const importCreateBody = {
  type: 'object',
  properties: {
    url,
    calendar: {
      type: 'string',
      description:
        'The iCalendar text itself (or send it as the body with Content-Type: text/calendar, options in the query string).',
    },
    csv: {
      type: 'string',
      description:
        'Events in the reference plugin’s CSV columns, one a row (or send it as the body with Content-Type: text/csv, options in the query string).',
    },
    categories,
    status,
    resync_minutes: resync,
  },
  additionalProperties: false,
} as const;

/** Options of a text/calendar or text/csv body, which has no room for them. */
export const importCreateQuery = {
  type: 'object',
  properties: {
    categories: {
      type: 'string',
      maxLength: 2000,
      description: 'Comma-separated category names every imported event gets (text bodies).',
    },
    status,
    dry_run: {
      type: 'boolean',
      description:
        'CSV only: read and check every row and answer 200 with the report of what would be imported; nothing is written.',
    },
  },
  additionalProperties: false,
} as const;

export const importUpdateBody = {
  type: 'object',
  properties: { url, categories, status, resync_minutes: resync },
  additionalProperties: false,
} as const;

const count = { type: 'integer', minimum: 0 } as const;

export const importReport = {
  type: 'object',
  properties: {
    started_utc: { type: 'string' },
    finished_utc: { type: 'string' },
    created: count,
    updated: count,
    unchanged: count,
    trashed: count,
    skipped: {
      type: 'array',
      description: 'What was not imported, and why (line numbers are the feed’s or the CSV’s).',
      items: {
        type: 'object',
        properties: {
          line: { type: 'integer' },
          uid: { type: 'string' },
          reason: { type: 'string' },
        },
        required: ['reason'],
        additionalProperties: false,
      },
    },
    error: {
      type: 'string',
      description: 'Why the whole run failed (the feed could not be fetched or read).',
    },
  },
  required: ['started_utc', 'created', 'updated', 'unchanged', 'trashed', 'skipped'],
  additionalProperties: false,
} as const;

export const importSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer', minimum: 1 },
    source: { type: 'string', enum: ['url', 'calendar', 'csv'] },
    url: { type: ['string', 'null'] },
    categories: { type: 'array', items: { type: 'string' } },
    status,
    resync_minutes: { type: ['integer', 'null'] },
    next_run_utc: { type: ['string', 'null'], description: 'When a re-sync is next due; null without one.' },
    events: { ...count, description: 'Events (series counted once) this import made and still tracks.' },
    created_utc: { type: 'string' },
    modified_utc: { type: 'string' },
    last_run: importReport,
    progress: {
      description:
        'null when the last run finished. Else it is unfinished (a request answered 202): done of total feed records so far (total null before the feed was read); the re-sync job continues it.',
      anyOf: [
        {
          type: 'object',
          properties: { done: count, total: { type: ['integer', 'null'], minimum: 0 } },
          required: ['done', 'total'],
          additionalProperties: false,
        },
        { type: 'null' },
      ],
    },
    rest_url: { type: 'string' },
  },
  required: [
    'id',
    'source',
    'url',
    'categories',
    'status',
    'resync_minutes',
    'next_run_utc',
    'events',
    'created_utc',
    'modified_utc',
    'last_run',
    'progress',
    'rest_url',
  ],
  additionalProperties: false,
} as const;

/** The answer to a CSV dry run: what the import would be and do; nothing was written. */
export const importDryRun = {
  title: 'ImportDryRun',
  type: 'object',
  properties: {
    dry_run: { type: 'boolean', enum: [true] },
    source: { type: 'string', enum: ['csv'] },
    categories: importSchema.properties.categories,
    status,
    last_run: importReport,
  },
  required: ['dry_run', 'source', 'categories', 'status', 'last_run'],
  additionalProperties: false,
} as const;

export const importList = {
  type: 'object',
  properties: { imports: { type: 'array', items: importSchema } },
  required: ['imports'],
  additionalProperties: false,
} as const;

export { idPath };
