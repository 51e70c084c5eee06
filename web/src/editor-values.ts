import type { Schemas } from '../../client/src';
import { type CalEvent, venuesOf } from './api-types';
import type { EventFields } from './form-checks';
import { fromInput, toInput } from './format';

/**
 * The editor's fields as values, without the DOM (editor-form.ts reads and writes them in the page):
 * what an event opens as, what a new one starts with, and the body a save sends (decisions §6: a
 * partial update, arrays replace the whole set). Pure: test/unit/web-editor.test.ts runs it in Node.
 */

/** The form's fields as the inputs hold them: datetime-local dates, the venue's ID as text. */
export interface FormValues {
  title: string;
  start_date: string;
  end_date: string;
  timezone: string;
  all_day: boolean;
  status: string;
  featured: boolean;
  description: string;
  cost: string;
  website: string;
  image: string;
  venue: string;
  organizer: number[];
  categories: number[];
  tags: number[];
}

export type EventBody = Schemas['CreateEventBody'];

/** Where a new event starts (new-event.ts): datetime-local values in the viewer's zone. */
export interface NewEventDefaults {
  start?: string;
  end?: string;
  allDay?: boolean;
}

/** The fields of an event being edited (a trashed one opens as a draft). */
export function valuesOfEvent(e: CalEvent): FormValues {
  return {
    title: e.title,
    start_date: toInput(e.start_date),
    end_date: toInput(e.end_date),
    timezone: e.timezone ?? '',
    all_day: !!e.all_day,
    status: e.status === 'trash' ? 'draft' : e.status,
    featured: !!e.featured,
    description: e.description ?? '',
    cost: e.cost ?? '',
    // The API shows the event's own page as `website` when it has none: that is not a website to save
    // (it would keep the old address after a slug change), so the field stays empty then.
    website: e.website && e.website !== e.url ? e.website : '',
    image: e.image ? e.image.url : '',
    venue: String(venuesOf(e).find((v) => v && v.id)?.id ?? ''),
    organizer: e.organizer.map((o) => o.id),
    categories: (e.categories ?? []).map((c) => c.id),
    tags: (e.tags ?? []).map((t) => t.id),
  };
}

/** The fields a new event sets after the form's reset (the others keep the form's own defaults). */
export const newEventValues = (d: NewEventDefaults, zone: string): Partial<FormValues> => ({
  timezone: zone,
  start_date: d.start ?? '',
  end_date: d.end ?? '',
  all_day: !!d.allDay,
  status: 'publish',
});

/** The fields the form's own checks read (form-checks.ts). */
export const checkedFieldsOf = (v: FormValues): EventFields => ({
  title: v.title,
  start_date: v.start_date,
  end_date: v.end_date,
  timezone: v.timezone,
  website: v.website,
  image: v.image,
});

/**
 * The body to send: every field of the form (a save sends it whole, or only what changed: save-request.ts),
 * with `recurrence` when there is one to send; an empty zone is the viewer's.
 */
export function eventBody(v: FormValues, recurrence: string[] | null, zone: string): EventBody {
  const venue = Number(v.venue) || null;
  return {
    ...(recurrence ? { recurrence } : {}),
    title: v.title,
    start_date: fromInput(v.start_date),
    end_date: fromInput(v.end_date),
    timezone: v.timezone || zone,
    all_day: v.all_day,
    status: v.status as EventBody['status'],
    featured: v.featured,
    description: v.description,
    cost: v.cost,
    website: v.website || null,
    image: v.image || null,
    venue: venue ? [venue] : [],
    organizer: v.organizer,
    categories: v.categories,
    tags: v.tags,
  };
}
