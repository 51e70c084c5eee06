import { type ApiError, fieldMessages } from './api';
import { $, form, readValues } from './editor-form';
import { checkedFieldsOf } from './editor-values';
import { apiSummary, type MessageSource, recheckAction } from './field-messages';
import { checkEvent } from './form-checks';

/**
 * The editor's messages: the API's 400 messages next to the fields they name (`data.params`, with
 * `data.details` for the codes) and the form's own checks' the same way; a message for a field the
 * form does not have goes above the form. Their words and rules are field-messages.ts.
 */

/** Takes one field's message away, its field back to its own description (a hint), if it has one. */
function clearField(wrap: Element): void {
  wrap.querySelector('.field-error')?.remove();
  for (const f of Array.from(wrap.querySelectorAll('[aria-invalid]'))) {
    f.removeAttribute('aria-invalid');
    const own = f.getAttribute('data-describedby');
    if (own) f.setAttribute('aria-describedby', own);
    else f.removeAttribute('aria-describedby');
  }
}

/** Whether the line above the form speaks of the fields' messages alone (it goes with the last of them). */
let summaryOfFields = false;

export function clearErrors(): void {
  for (const wrap of Array.from(form().querySelectorAll('[data-field]'))) clearField(wrap);
  const top = $('form-error');
  top.hidden = true;
  top.textContent = '';
}

/**
 * Puts every message under its field at once (linked for screen readers), the rest and `summary` above
 * the form, and focuses the first field named. `source`: whether the form's checks or the API found them.
 */
export function showMessages(messages: Record<string, string>, summary: string, source: MessageSource): void {
  clearErrors();
  const elsewhere: string[] = [];
  let first: HTMLElement | null = null;
  for (const [name, message] of Object.entries(messages)) {
    const wrap = form().querySelector<HTMLElement>(`[data-field="${CSS.escape(name)}"]`);
    const field = wrap?.querySelector<HTMLElement>('input, select, textarea');
    if (!wrap || !field) {
      elsewhere.push(message);
      continue;
    }
    const id = `err-${name}`;
    const p = Object.assign(document.createElement('p'), {
      id,
      className: 'field-error',
      textContent: message,
    });
    p.dataset.source = source;
    wrap.append(p);
    field.setAttribute('aria-invalid', 'true');
    const own = field.getAttribute('data-describedby');
    field.setAttribute('aria-describedby', own ? `${id} ${own}` : id);
    first ??= field;
  }
  summaryOfFields = elsewhere.length === 0 && first !== null;
  const top = $('form-error');
  top.textContent = elsewhere.length ? `${summary} ${elsewhere.join(' ')}` : summary;
  top.hidden = false;
  (first ?? top).focus?.();
}

/** The API's refusal: its messages next to the fields they name (`data.params`, `data.details`). */
export function showErrors(error: ApiError): void {
  const messages = fieldMessages(error);
  const summary = apiSummary(
    { status: error.status, message: error.message, code: error.body.code },
    Object.keys(messages).length,
  );
  showMessages(messages, summary, 'api');
}

/** Brings the messages shown up to date after an input (field-messages.ts recheckAction). */
function recheck(ev: Event): void {
  const shown = Array.from(form().querySelectorAll<HTMLElement>('.field-error'));
  if (!shown.length) return;
  const changed = (ev.target as HTMLElement).closest<HTMLElement>('[data-field]')?.dataset.field;
  const problems = checkEvent(checkedFieldsOf(readValues()));
  for (const p of shown) {
    const wrap = p.closest<HTMLElement>('[data-field]');
    const name = wrap?.dataset.field ?? '';
    const action = recheckAction(
      { name, source: p.dataset.source as MessageSource | undefined },
      problems,
      changed,
    );
    if (typeof action === 'object') p.textContent = action.update;
    else if (action === 'clear' && wrap) clearField(wrap);
  }
  if (summaryOfFields && !form().querySelector('.field-error')) {
    $('form-error').hidden = true;
    $('form-error').textContent = '';
  }
}

/** Wires the live checks; once, when the page starts. */
export function setUpFieldChecks(): void {
  form().addEventListener('input', recheck);
  form().addEventListener('change', recheck);
}
