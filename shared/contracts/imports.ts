import { idPath } from '../schemas/common';
import {
  importCreateBody,
  importCreateQuery,
  importDryRun,
  importList,
  importSchema,
  importUpdateBody,
} from '../schemas/imports';
import { CREATE_ERRORS, errors, READ_ERRORS, WRITE_ERRORS } from './responses';
import type { Operation } from './types';

/** iCalendar feed and CSV imports (docs/import-export.md): editors and administrators. */
const dir = 'functions/imports';
const EDITOR_READ = [...READ_ERRORS, 403] as const;

/**
 * How long the functions that run an import in the request (create, update) may take: nearly as long as
 * API Gateway waits (30 s). The run stops short of it (domain/import-budget.ts) and leaves the rest to
 * the re-sync job, answering 202.
 */
export const IMPORT_TIMEOUT_SECONDS = 29;

const UNFINISHED = {
  description:
    'The run did not finish in the request’s time: the import as saved, with its progress; the re-sync job continues it (poll its rest_url, also in Location).',
  schema: importSchema,
  headers: { Location: 'URL of the import.' },
} as const;
export const importOps = {
  list: {
    operationId: 'listImports',
    methods: ['GET'],
    path: '/imports',
    handler: `${dir}/list-imports`,
    summary: 'List imports with their last run',
    access: 'editor',
    readOnly: true,
    responses: { 200: { description: 'Every import.', schema: importList }, ...errors(...EDITOR_READ) },
  },
  create: {
    operationId: 'createImport',
    methods: ['POST'],
    path: '/imports',
    handler: `${dir}/create-import`,
    summary:
      'Import an iCalendar feed (url, or a text/calendar body) or events in CSV columns (a text/csv body) and run it',
    access: 'editor',
    readOnly: false,
    timeoutSeconds: IMPORT_TIMEOUT_SECONDS,
    query: importCreateQuery,
    body: importCreateBody,
    textBody: { 'text/calendar': 'calendar', 'text/csv': 'csv' },
    responses: {
      200: {
        description: 'dry_run=true (CSV): the report of what would be imported; nothing written.',
        schema: importDryRun,
      },
      201: { description: 'The import and the report of its first run.', schema: importSchema },
      202: UNFINISHED,
      ...errors(...CREATE_ERRORS),
    },
  },
  get: {
    operationId: 'getImport',
    methods: ['GET'],
    path: '/imports/{id}',
    handler: `${dir}/get-import`,
    summary: 'Read an import and its last run’s report',
    access: 'editor',
    readOnly: true,
    pathParams: idPath,
    responses: {
      200: { description: 'The import.', schema: importSchema },
      ...errors(...EDITOR_READ, 404),
    },
  },
  update: {
    operationId: 'updateImport',
    methods: ['PATCH'],
    path: '/imports/{id}',
    handler: `${dir}/update-import`,
    summary:
      'Change an import’s feed URL, categories, status or re-sync interval (partial); a feed is fetched and synced again at once',
    access: 'editor',
    readOnly: false,
    timeoutSeconds: IMPORT_TIMEOUT_SECONDS,
    pathParams: idPath,
    body: importUpdateBody,
    responses: {
      200: { description: 'The changed import.', schema: importSchema },
      202: UNFINISHED,
      ...errors(...WRITE_ERRORS, 404, 409),
    },
  },
  delete: {
    operationId: 'deleteImport',
    methods: ['DELETE'],
    path: '/imports/{id}',
    handler: `${dir}/delete-import`,
    summary: 'Delete an import and its re-sync; the events it made stay',
    access: 'editor',
    readOnly: false,
    pathParams: idPath,
    responses: {
      200: { description: 'The deleted import.', schema: importSchema },
      ...errors(...WRITE_ERRORS, 404),
    },
  },
} as const satisfies Record<string, Operation>;
