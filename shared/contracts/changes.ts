import { changePage, changesQuery } from '../schemas/changes';
import { errors, READ_ERRORS, unchanged } from './responses';
import type { Operation } from './types';

export const changeOps = {
  /** The change feed: what changed in every collection, oldest first, as this caller may see it. */
  list: {
    operationId: 'listChanges',
    methods: ['GET'],
    path: '/changes',
    handler: 'functions/changes/list-changes',
    summary:
      'Changes to events, venues, organizers, categories and tags after a cursor, oldest first, as the caller sees them',
    access: 'public',
    readOnly: true,
    query: changesQuery,
    responses: {
      200: {
        description:
          'A page of changes and the cursor to read on from. A page may list fewer changes than per_page (even none) while has_more is true: entries about records the caller may not see are skipped.',
        schema: changePage,
      },
      // Every GET answers If-None-Match: polling with the last cursor gets a 304 while nothing changed.
      ...unchanged(),
      ...errors(...READ_ERRORS),
    },
  },
} as const satisfies Record<string, Operation>;
