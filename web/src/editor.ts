import type { Schemas } from '../../client/src';
import { ApiError, type CalEvent, cal, fieldMessages, pageError, venuesOf } from './api';
import { checkEvent, type EventFields } from './form-checks';
import { fromInput, toInput, viewerZone } from './format';
import { refreshMultiSelects } from './multi-select';
import {
  dayName,
  type Frequency,
  frequencyChoices,
  NO_REPEAT,
  type Repeat,
  recurrenceLines,
  repeatOf,
  WEEKDAYS,
} from './repeat-lines';
import { askScope } from './scope';

/**
 * The create / edit form. It sends what the API takes (decisions §6: a partial update, arrays replace
 * the whole set) and shows the API's 400 messages next to the fields they name (`data.params`, with
 * `data.details` for the codes); a message for a field the form does not have goes above the form.
 */
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const form = () => $<HTMLFormElement>('event-form');
const input = (name: string) =>
  form().elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

const selected = (name: string): number[] =>
  Array.from((input(name) as HTMLSelectElement).selectedOptions)
    .map((o) => Number(o.value))
    .filter((n) => n > 0);

function select(name: string, ids: number[]): void {
  for (const o of Array.from((input(name) as HTMLSelectElement).options))
    o.selected = ids.includes(Number(o.value));
}

let editing: CalEvent | null = null;
/** The ETag of the version being edited: the save is conditional on it (If-Match). */
let editingEtag: string | null = null;

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
function showMessages(messages: Record<string, string>, summary: string, source: 'form' | 'api'): void {
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
  const summary =
    error.status === 412
      ? 'This event was changed by someone else since you opened it, so nothing was saved. Close the form and open the event again to edit its new version.'
      : Object.keys(messages).length
        ? error.message
        : `${error.message} (${error.body.code})`;
  showMessages(messages, summary, 'api');
}

/** The fields the form's own checks read, as typed. */
function checkedFields(): EventFields {
  const text = (name: string) => (input(name) as HTMLInputElement).value.trim();
  return {
    title: text('title'),
    start_date: text('start_date'),
    end_date: text('end_date'),
    timezone: text('timezone'),
    website: text('website'),
    image: text('image'),
  };
}

/**
 * A message goes as soon as its field is fixed: one the form's checks found when they pass again (an
 * end before the start goes when either date is changed to fit), one of the API's when its field is
 * changed (only the API can tell whether that fixed it). A message still due is kept, up to date.
 */
function recheck(ev: Event): void {
  const shown = Array.from(form().querySelectorAll<HTMLElement>('.field-error'));
  if (!shown.length) return;
  const changed = (ev.target as HTMLElement).closest<HTMLElement>('[data-field]')?.dataset.field;
  const problems = checkEvent(checkedFields());
  for (const p of shown) {
    const wrap = p.closest<HTMLElement>('[data-field]');
    const name = wrap?.dataset.field ?? '';
    if (problems[name]) p.textContent = problems[name];
    else if (wrap && (p.dataset.source === 'form' || name === changed)) clearField(wrap);
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

// ---- The repeat control (a new event, or an occurrence of a series) ----------------------------------

/** Whether the user changed the repeat control: an edit sends `recurrence` only then. */
let repeatTouched = false;
const UNIT: Partial<Record<Frequency, string>> = { daily: 'days', weekly: 'weeks', yearly: 'years' };

const startWall = () => fromInput((input('start_date') as HTMLInputElement).value.trim());
const repeatField = () => form().querySelector<HTMLElement>('[data-field="recurrence"]')!;

/** The frequency choices for the start in the form (their labels name its day), keeping the one chosen. */
function fillFrequencies(): void {
  const select = $<HTMLSelectElement>('e-freq');
  const current = select.value;
  const choices = frequencyChoices(startWall());
  select.replaceChildren(...choices.map((c) => new Option(c.label, c.value)));
  select.value = choices.some((c) => c.value === current) ? current : 'never';
}

/** Shows the parts of the control the chosen frequency uses. */
function showRepeatParts(): void {
  const freq = $<HTMLSelectElement>('e-freq').value as Frequency;
  $('e-every').hidden = freq === 'never';
  $('e-interval-unit').textContent = freq.startsWith('monthly') ? 'months' : (UNIT[freq] ?? '');
  $('e-days').hidden = freq !== 'weekly';
  $('e-ends').hidden = freq === 'never';
}

function readRepeat(): Repeat {
  const ends = form().querySelector<HTMLInputElement>('input[name="ends"]:checked')?.value;
  return {
    freq: $<HTMLSelectElement>('e-freq').value as Frequency,
    interval: Math.max(1, Math.trunc(Number($<HTMLInputElement>('e-interval').value)) || 1),
    days: WEEKDAYS.filter((d) => $<HTMLInputElement>(`e-day-${d}`).checked),
    ends: (ends ?? 'never') as Repeat['ends'],
    until: $<HTMLInputElement>('e-until').value,
    count: Math.max(1, Math.trunc(Number($<HTMLInputElement>('e-count').value)) || 1),
  };
}

function writeRepeat(r: Repeat): void {
  fillFrequencies();
  $<HTMLSelectElement>('e-freq').value = r.freq;
  $<HTMLInputElement>('e-interval').value = String(r.interval);
  for (const d of WEEKDAYS) $<HTMLInputElement>(`e-day-${d}`).checked = r.days.includes(d);
  $<HTMLInputElement>(`e-ends-${r.ends}`).checked = true;
  $<HTMLInputElement>('e-until').value = r.until;
  $<HTMLInputElement>('e-count').value = String(r.count);
  showRepeatParts();
}

/** Builds the day boxes and wires the control; once, when the page starts. */
export function setUpRepeat(): void {
  $('e-days').append(
    ...WEEKDAYS.map((d) => {
      const box = Object.assign(document.createElement('input'), {
        type: 'checkbox',
        id: `e-day-${d}`,
        value: d,
      });
      const label = Object.assign(document.createElement('label'), {
        htmlFor: box.id,
        textContent: dayName(d),
      });
      const wrap = Object.assign(document.createElement('span'), { className: 'choice' });
      wrap.append(box, label);
      return wrap;
    }),
  );
  const field = repeatField();
  const touched = () => {
    repeatTouched = true;
    showRepeatParts();
  };
  field.addEventListener('change', touched);
  field.addEventListener('input', touched);
  input('start_date').addEventListener('change', fillFrequencies);
}

/** The control for the event being opened: hidden for a single event's edit (a series is made on create). */
function openRepeat(e: CalEvent | null): void {
  repeatTouched = false;
  const kept = $('e-repeat-kept');
  kept.hidden = true;
  repeatField().hidden = !!e && e.series_id == null;
  if (!e || e.series_id == null) return writeRepeat(NO_REPEAT);
  const shown = repeatOf(e.recurrence, e.occurrence_start ?? e.start_date);
  writeRepeat(shown ?? NO_REPEAT);
  if (!shown) {
    kept.textContent = `This series repeats by a rule the form cannot show (${e.recurrence_text ?? ''}): it stays as it is unless you choose a repeat here.`;
    kept.hidden = false;
  }
}

/** `recurrence` to send: a new event's repeat, or an occurrence's changed one (a series stays a series). */
function recurrenceToSend(): string[] | null {
  if (editing && (editing.series_id == null || !repeatTouched)) return null;
  return recurrenceLines(readRepeat(), startWall());
}

// ---- The body --------------------------------------------------------------------------------------

/** The body to send: every field of the form (a new event), or the fields that can change (an edit). */
function body(): Schemas['CreateEventBody'] {
  const text = (name: string) => (input(name) as HTMLInputElement).value.trim();
  const checked = (name: string) => (input(name) as HTMLInputElement).checked;
  const venue = Number(text('venue')) || null;
  const recurrence = recurrenceToSend();
  return {
    ...(recurrence ? { recurrence } : {}),
    title: text('title'),
    start_date: fromInput(text('start_date')),
    end_date: fromInput(text('end_date')),
    timezone: text('timezone') || viewerZone(),
    all_day: checked('all_day'),
    status: text('status') as Schemas['CreateEventBody']['status'],
    featured: checked('featured'),
    description: (input('description') as HTMLTextAreaElement).value,
    cost: text('cost'),
    website: text('website') || null,
    image: text('image') || null,
    venue: venue ? [venue] : [],
    organizer: selected('organizer'),
    categories: selected('categories'),
    tags: selected('tags'),
  };
}

/** The body as the form was opened, field by field (JSON): an occurrence's save sends what changed. */
let opened: Record<string, string> = {};
const fieldsOf = (b: object) => Object.entries(b).map(([k, v]) => [k, JSON.stringify(v)] as const);

/**
 * Only the fields changed since the form opened: the API keeps a field edited on one occurrence alone
 * when all of the series change later (docs/recurrence.md), so what the user left is not sent as an edit.
 */
const changedFields = (b: Schemas['CreateEventBody']) =>
  Object.fromEntries(
    fieldsOf(b)
      .filter(([k, v]) => opened[k] !== v)
      .map(([k]) => [k, b[k as keyof typeof b]]),
  );

export function openEditor(
  e: CalEvent | null,
  defaults: { start?: string; end?: string; allDay?: boolean } = {},
  etag: string | null = null,
): void {
  editing = e;
  editingEtag = etag;
  const f = form();
  f.reset();
  clearErrors();
  $('editor-title').textContent = e ? `Edit “${e.title}”` : 'New event';
  const set = (name: string, value: string) => ((input(name) as HTMLInputElement).value = value);
  const check = (name: string, value: boolean) => ((input(name) as HTMLInputElement).checked = value);
  if (e) {
    set('title', e.title);
    set('start_date', toInput(e.start_date));
    set('end_date', toInput(e.end_date));
    set('timezone', e.timezone ?? '');
    check('all_day', !!e.all_day);
    set('status', e.status === 'trash' ? 'draft' : e.status);
    check('featured', !!e.featured);
    set('description', e.description ?? '');
    set('cost', e.cost ?? '');
    // The API shows the event's own page as `website` when it has none: that is not a website to save
    // (it would keep the old address after a slug change), so the field stays empty then.
    set('website', e.website && e.website !== e.url ? e.website : '');
    set('image', e.image ? e.image.url : '');
    set('venue', String(venuesOf(e).find((v) => v && v.id)?.id ?? ''));
    select(
      'organizer',
      e.organizer.map((o) => o.id),
    );
    select(
      'categories',
      (e.categories ?? []).map((c) => c.id),
    );
    select(
      'tags',
      (e.tags ?? []).map((t) => t.id),
    );
  } else {
    set('timezone', viewerZone());
    set('start_date', defaults.start ?? '');
    set('end_date', defaults.end ?? '');
    check('all_day', !!defaults.allDay);
    set('status', 'publish');
  }
  refreshMultiSelects();
  openRepeat(e);
  opened = Object.fromEntries(fieldsOf(body()));
  $<HTMLDialogElement>('editor').showModal();
  (input('title') as HTMLInputElement).focus();
}

/** Saves the form; resolves with the saved event, or null when the API refused it (shown in the form). */
export async function saveEditor(): Promise<CalEvent | null> {
  const save = $<HTMLButtonElement>('e-save');
  // Every problem the form can see, at once, before anything is sent.
  const problems = checkEvent(checkedFields());
  const count = Object.keys(problems).length;
  if (count) {
    showMessages(problems, `Nothing was saved: ${count} field${count === 1 ? '' : 's'} to correct.`, 'form');
    return null;
  }
  // An occurrence of a series: which of its events the change is for.
  const scope = editing?.series_id != null ? await askScope('save', editing.title) : undefined;
  if (scope === null) return null;
  save.disabled = true;
  try {
    const { data: saved } = editing
      ? await cal.updateEvent({
          path: { id: editing.id },
          body: scope ? changedFields(body()) : body(),
          ifMatch: editingEtag,
          ...(scope ? { query: { scope } } : {}),
        })
      : await cal.createEvent({ body: body() });
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
