import { ApiError, type CalEvent, cal, pageError } from './api';
import { $, readValues } from './editor-form';
import { clearErrors, showErrors, showMessages } from './editor-messages';
import { recurrenceToSend } from './editor-repeat';
import { session } from './editor-session';
import { checkedFieldsOf, type EventBody, eventBody } from './editor-values';
import { formSummary } from './field-messages';
import { checkEvent } from './form-checks';
import { viewerZone } from './format';
import { saveRequest } from './save-request';
import { askScope } from './scope';

/** The body the form holds now, for the event open. */
export const currentBody = (): EventBody =>
  eventBody(readValues(), recurrenceToSend(session.event), viewerZone());

/** Saves the form; resolves with the saved event, or null when the API refused it (shown in the form). */
export async function saveEditor(): Promise<CalEvent | null> {
  const save = $<HTMLButtonElement>('e-save');
  // Every problem the form can see, at once, before anything is sent.
  const problems = checkEvent(checkedFieldsOf(readValues()));
  const count = Object.keys(problems).length;
  if (count) {
    showMessages(problems, formSummary(count), 'form');
    return null;
  }
  // An occurrence of a series: which of its events the change is for.
  const editing = session.event;
  const scope = editing?.series_id != null ? await askScope('save', editing.title) : undefined;
  if (scope === null) return null;
  save.disabled = true;
  try {
    const r = saveRequest(editing, session.etag, scope, currentBody(), session.opened);
    const { data: saved } =
      r.op === 'updateEvent'
        ? await cal.updateEvent({
            path: { id: r.id },
            body: r.body,
            ifMatch: r.ifMatch,
            ...(r.scope ? { query: { scope: r.scope } } : {}),
          })
        : await cal.createEvent({ body: r.body });
    clearErrors();
    $<HTMLDialogElement>('editor').close();
    return saved;
  } catch (err) {
    if (err instanceof ApiError) showErrors(err);
    else showErrors(pageError((err as Error).message));
    return null;
  } finally {
    save.disabled = false;
  }
}
