import type { CalEvent } from './api-types';
import { statusLabel, toInput } from './format';

// Where a new event starts (the *New event* button, a click on a day or an hour) and what a save says.

export interface NewEventAt {
  /** datetime-local values (`YYYY-MM-DDTHH:MM`) in the viewer's zone, as the form takes them. */
  start: string;
  end: string;
  allDay: boolean;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An all-day event on `date`, or a one-hour event from `time` (`HH:MM:SS`) on it. */
export function newEventAt(date: string, time?: string): NewEventAt {
  if (!time) return { start: `${date}T00:00`, end: `${date}T23:59`, allDay: true };
  const [h, m] = time.split(':').map(Number) as [number, number];
  const start = new Date(Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10), h, m));
  const end = new Date(start.getTime() + 3600_000);
  const input = (d: Date) =>
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
  return { start: input(start), end: input(end), allDay: false };
}

/** A new event's default times on a day: 18:00 to 20:00 of the viewer's zone, as the inputs take them. */
export function newEventTimes(day: Date): { start: string; end: string } {
  const start = new Date(day);
  start.setHours(18, 0, 0, 0);
  const local = (d: Date) =>
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:00`;
  const end = new Date(start.getTime() + 2 * 3600_000);
  return { start: toInput(local(start)), end: toInput(local(end)) };
}

/** What the page says of a saved event. */
export const savedNotice = (saved: Pick<CalEvent, 'title' | 'status'>): string =>
  saved.status === 'publish'
    ? `Saved “${saved.title}”.`
    : `Saved “${saved.title}” (${statusLabel(saved.status)}).`;
