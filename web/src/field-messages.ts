/**
 * The words and rules of the editor's messages (editor-messages.ts shows them): the line above the form,
 * and what the live checks do with a message already shown. Pure: test/unit/web-editor.test.ts runs it.
 */

/** Where a message came from: the form's own checks, or the API's refusal. */
export type MessageSource = 'form' | 'api';

export const STALE_VERSION =
  'This event was changed by someone else since you opened it, so nothing was saved. Close the form and open the event again to edit its new version.';

/** The line above the form for the API's refusal; the code is shown when no field message explains it. */
export function apiSummary(
  e: { status: number; message: string; code: string },
  fieldMessageCount: number,
): string {
  if (e.status === 412) return STALE_VERSION;
  return fieldMessageCount ? e.message : `${e.message} (${e.code})`;
}

/** The line above the form when its own checks found problems. */
export const formSummary = (count: number) =>
  `Nothing was saved: ${count} field${count === 1 ? '' : 's'} to correct.`;

/**
 * What the live check does with the message shown under field `name` after an input in field `changed`:
 * one the form's checks found goes when they pass again (an end before the start goes when either date
 * is changed to fit), one of the API's when its field is changed (only the API can tell whether that
 * fixed it); a message still due is kept, up to date.
 */
export function recheckAction(
  shown: { name: string; source: MessageSource | undefined },
  problems: Record<string, string>,
  changed: string | undefined,
): { update: string } | 'clear' | 'keep' {
  const problem = problems[shown.name];
  if (problem) return { update: problem };
  return shown.source === 'form' || shown.name === changed ? 'clear' : 'keep';
}
