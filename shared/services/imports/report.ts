import type { DomainError } from '../../domain/errors';
import type { ImportReport } from '../../repositories/imports';
import { body as createEventBody } from '../../schemas/compiled/createEvent';
import { checker } from '../../schemas/validation-errors';

/**
 * What the feed and the CSV runs (import-run.ts, import-csv.ts) report alike. Kept apart from both so
 * that a CSV run does not load the feed reader (ical.js) with them.
 */

/** A run's report before its first record. */
export const emptyReport = (): ImportReport => ({
  started_utc: new Date().toISOString(),
  created: 0,
  updated: 0,
  unchanged: 0,
  trashed: 0,
  skipped: [],
});

/** Why the service refused a write, as one line; `name` says what a field was called in the input. */
export function reasonOf(e: DomainError, name: (field: string) => string = (k) => k): string {
  const params = (e.data.params ?? {}) as Record<string, string>;
  const detail = Object.entries(params).map(([k, v]) => `${name(k)}: ${v}`);
  return `${e.code}: ${detail.length ? detail.join('; ') : e.message}`;
}

/**
 * Checks an imported record's event as `POST /events` checks its body (the same compiled validator:
 * decisions §7's limits, title 1,000 characters, description 100 KB, ...), so an import stores nothing
 * the API would refuse, and no field reaches DynamoDB's 400 KB item limit (a 500). A DomainError
 * naming the field, which the runs report as the record's reason for being skipped.
 */
export const checkAsPostEvents = checker(createEventBody);
