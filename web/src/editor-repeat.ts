import type { CalEvent } from './api';
import { $, form, input, text } from './editor-form';
import { fromInput } from './format';
import { atLeastOne, repeatOnOpen, repeatParts, sendsRecurrence } from './repeat-control';
import {
  dayName,
  type Frequency,
  frequencyChoices,
  type Repeat,
  recurrenceLines,
  WEEKDAYS,
} from './repeat-lines';

/**
 * The editor's repeat control (a new event, or an occurrence of a series) in the page; its state and
 * rules are repeat-control.ts, its `recurrence` lines repeat-lines.ts.
 */

/** Whether the user changed the repeat control: an edit sends `recurrence` only then. */
let repeatTouched = false;

const startWall = () => fromInput(text('start_date'));
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
  const parts = repeatParts($<HTMLSelectElement>('e-freq').value as Frequency);
  $('e-every').hidden = !parts.every;
  $('e-interval-unit').textContent = parts.unit;
  $('e-days').hidden = !parts.days;
  $('e-ends').hidden = !parts.ends;
}

function readRepeat(): Repeat {
  const ends = form().querySelector<HTMLInputElement>('input[name="ends"]:checked')?.value;
  return {
    freq: $<HTMLSelectElement>('e-freq').value as Frequency,
    interval: atLeastOne($<HTMLInputElement>('e-interval').value),
    days: WEEKDAYS.filter((d) => $<HTMLInputElement>(`e-day-${d}`).checked),
    ends: (ends ?? 'never') as Repeat['ends'],
    until: $<HTMLInputElement>('e-until').value,
    count: atLeastOne($<HTMLInputElement>('e-count').value),
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

/** The control for the event being opened (repeat-control.ts repeatOnOpen). */
export function openRepeat(e: CalEvent | null): void {
  repeatTouched = false;
  const kept = $('e-repeat-kept');
  kept.hidden = true;
  const open = repeatOnOpen(e);
  repeatField().hidden = open.hidden;
  writeRepeat(open.repeat);
  if (open.kept !== null) {
    kept.textContent = open.kept;
    kept.hidden = false;
  }
}

/** `recurrence` to send for the event open: a new event's repeat, or an occurrence's changed one. */
export function recurrenceToSend(editing: CalEvent | null): string[] | null {
  if (!sendsRecurrence(editing, repeatTouched)) return null;
  return recurrenceLines(readRepeat(), startWall());
}
