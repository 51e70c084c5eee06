import type { CalEvent } from './api';
import { $, form, input, writeValues } from './editor-form';
import { clearErrors } from './editor-messages';
import { openRepeat } from './editor-repeat';
import { currentBody } from './editor-save';
import { session } from './editor-session';
import { type NewEventDefaults, newEventValues, valuesOfEvent } from './editor-values';
import { viewerZone } from './format';
import { refreshMultiSelects } from './multi-select';
import { snapshotOf } from './save-request';

/**
 * The create / edit form, opened here; its parts are modules: the fields as values (editor-values.ts)
 * and in the page (editor-form.ts), the messages (editor-messages.ts, field-messages.ts), the repeat
 * control (editor-repeat.ts, repeat-control.ts), and the save (editor-save.ts, save-request.ts) with its
 * series scope (scope.ts).
 */

/** Opens the form for `e`, or for a new event starting as `defaults` says; `etag`: the version opened. */
export function openEditor(
  e: CalEvent | null,
  defaults: NewEventDefaults = {},
  etag: string | null = null,
): void {
  session.event = e;
  session.etag = etag;
  form().reset();
  clearErrors();
  $('editor-title').textContent = e ? `Edit “${e.title}”` : 'New event';
  writeValues(e ? valuesOfEvent(e) : newEventValues(defaults, viewerZone()));
  refreshMultiSelects();
  openRepeat(e);
  session.opened = snapshotOf(currentBody());
  $<HTMLDialogElement>('editor').showModal();
  (input('title') as HTMLInputElement).focus();
}
