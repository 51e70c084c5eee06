import type { Args } from '../../client/src';
import type { EventBody } from './editor-values';

/**
 * What a save of the editor sends: a create, an update conditional on the version opened (If-Match),
 * or, for an occurrence of a series, an update with the scope chosen (docs/recurrence.md) carrying only
 * the fields changed since the form opened. Pure: test/unit/web-editor.test.ts runs it in Node.
 */

/** Which events of a series a save is for (the API's `scope`; scope.ts asks). */
type Scope = NonNullable<NonNullable<Args<'updateEvent'>['query']>['scope']>;

/** The body as the form was opened, field by field (JSON). */
export type Snapshot = Record<string, string>;

export const snapshotOf = (b: object): Snapshot =>
  Object.fromEntries(Object.entries(b).map(([k, v]) => [k, JSON.stringify(v)]));

/**
 * Only the fields changed since the form opened: the API keeps a field edited on one occurrence alone
 * when all of the series change later (docs/recurrence.md), so what the user left is not sent as an edit.
 */
export const changedFields = (opened: Snapshot, b: EventBody): Partial<EventBody> =>
  Object.fromEntries(Object.entries(b).filter(([k, v]) => opened[k] !== JSON.stringify(v)));

export type SaveRequest =
  | { op: 'createEvent'; body: EventBody }
  | {
      op: 'updateEvent';
      id: number;
      body: Partial<EventBody>;
      ifMatch: string | null;
      scope?: Scope;
    };

/** The call a save makes for the event open (null: a new one), the scope chosen (if asked) and the body. */
export function saveRequest(
  editing: { id: number } | null,
  etag: string | null,
  scope: Scope | undefined,
  body: EventBody,
  opened: Snapshot,
): SaveRequest {
  if (!editing) return { op: 'createEvent', body };
  return {
    op: 'updateEvent',
    id: editing.id,
    body: scope ? changedFields(opened, body) : body,
    ifMatch: etag,
    ...(scope ? { scope } : {}),
  };
}
