import { type CalEvent, venuesOf } from './api-types';
import { colourOf } from './colours';
import { eventPagePath } from './page-route';
import { nextDay, statusLabel, utcInstant } from './format';

/** Where a timed event's day ends in the month view and in the all-day row (FullCalendar's option). */
export const NEXT_DAY_THRESHOLD_H = 6;

/**
 * The API's `start_date` / `end_date` keep events lying inside a window (starting on or after it
 * starts, ending on or before it ends), which would drop an event running across an edge of the view;
 * `ends_after` / `starts_before` select the overlapping ones. Its date filters compare each event's own
 * wall times (as the reference does), not instants, so the window asked for is the visible one widened
 * by the largest UTC offsets (14 h each way), and the events are then kept by their UTC instants
 * (`overlaps`).
 */
const ZONE_MARGIN_MS = 14 * 3600_000;
const wallString = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');

/** The day of a moment in the viewer's zone, `YYYY-MM-DD`. */
export const localDate = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** The query's window for a visible range: the events that may overlap it, whatever their zone. */
export const rangeQuery = (start: Date, end: Date) => ({
  ends_after: wallString(new Date(start.getTime() - ZONE_MARGIN_MS)),
  starts_before: wallString(new Date(end.getTime() + ZONE_MARGIN_MS)),
});

/** Whether an event overlaps the visible range `[start, end)`. */
export function overlaps(e: CalEvent, start: Date, end: Date): boolean {
  if (e.all_day)
    return e.start_date.slice(0, 10) < localDate(end) && e.end_date.slice(0, 10) >= localDate(start);
  return utcInstant(e.utc_end_date ?? '') > start && utcInstant(e.utc_start_date ?? '') < end;
}

/** What FullCalendar is given to draw an event (its EventInput, as far as the page fills it). */
export interface DrawnEvent {
  id: string;
  url: string;
  title: string;
  classNames: string[];
  extendedProps: { status: string; colour: string; category: string; venue: string };
  backgroundColor?: string;
  borderColor?: string;
  allDay?: boolean;
  start?: string;
  end?: string;
}

/** An event as FullCalendar draws it in a view (`timeGrid`: the week and day views). */
export function toInputEvent(e: CalEvent, timeGrid: boolean): DrawnEvent {
  const pending = e.status !== 'publish';
  const { colour, category } = colourOf(e);
  const base: DrawnEvent = {
    id: String(e.id),
    // The element is a link to the event's page (crawlable.ts); a click opens the detail (eventClick).
    url: eventPagePath(e.slug),
    title: pending ? `${e.title} (${statusLabel(e.status)})` : e.title,
    classNames: [`status-${e.status}`, ...(e.featured ? ['featured'] : [])],
    extendedProps: { status: e.status, colour, category, venue: venuesOf(e)[0]?.venue ?? '' },
    // Drafts and pending events stay white and dashed (app.css): only their border takes the colour.
    ...(pending ? { borderColor: colour } : { backgroundColor: colour, borderColor: colour }),
  };
  if (e.all_day)
    return { ...base, allDay: true, start: e.start_date.slice(0, 10), end: nextDay(e.end_date.slice(0, 10)) };
  const start = utcInstant(e.utc_start_date ?? '');
  const end = utcInstant(e.utc_end_date ?? '');
  // A timed event of a day or more is a bar in the week and day views' all-day row, not columns of
  // solid colour: from its first day to its last (one ending before the threshold ends the day before).
  if (timeGrid && end.getTime() - start.getTime() >= 24 * 3600_000) {
    const last = localDate(new Date(end.getTime() - NEXT_DAY_THRESHOLD_H * 3600_000));
    const first = localDate(start);
    return { ...base, allDay: true, start: first, end: nextDay(last < first ? first : last) };
  }
  return {
    ...base,
    start: `${e.utc_start_date?.replace(' ', 'T')}Z`,
    end: `${e.utc_end_date?.replace(' ', 'T')}Z`,
  };
}
