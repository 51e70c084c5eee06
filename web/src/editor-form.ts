import type { FormValues } from './editor-values';

/** The editor's form in the page: its elements, and its fields read and written as values (editor-values.ts). */

export const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

export const form = () => $<HTMLFormElement>('event-form');
export const input = (name: string) =>
  form().elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** A field's value as typed, trimmed. */
export const text = (name: string) => (input(name) as HTMLInputElement).value.trim();
const checked = (name: string) => (input(name) as HTMLInputElement).checked;

const selected = (name: string): number[] =>
  Array.from((input(name) as HTMLSelectElement).selectedOptions)
    .map((o) => Number(o.value))
    .filter((n) => n > 0);

function select(name: string, ids: number[]): void {
  for (const o of Array.from((input(name) as HTMLSelectElement).options))
    o.selected = ids.includes(Number(o.value));
}

/** Every field as typed (trimmed, but for the description). */
export function readValues(): FormValues {
  return {
    title: text('title'),
    start_date: text('start_date'),
    end_date: text('end_date'),
    timezone: text('timezone'),
    all_day: checked('all_day'),
    status: text('status'),
    featured: checked('featured'),
    description: (input('description') as HTMLTextAreaElement).value,
    cost: text('cost'),
    website: text('website'),
    image: text('image'),
    venue: text('venue'),
    organizer: selected('organizer'),
    categories: selected('categories'),
    tags: selected('tags'),
  };
}

/** Sets the fields given, in their order: text as the value, a flag as the check, IDs as the options chosen. */
export function writeValues(v: Partial<FormValues>): void {
  for (const [name, value] of Object.entries(v)) {
    if (Array.isArray(value)) select(name, value);
    else if (typeof value === 'boolean') (input(name) as HTMLInputElement).checked = value;
    else if (value !== undefined) (input(name) as HTMLInputElement).value = value;
  }
}
