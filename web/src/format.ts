import { wallMs } from '../../shared/domain/wall-time';
import type { CalEvent } from './api-types';

/** The viewer's IANA zone: the calendar shows every timed event in it. */
export const viewerZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** `YYYY-MM-DD HH:MM:SS` in UTC (the API's `utc_*` fields) as an instant. */
export const utcInstant = (s: string): Date => new Date(wallMs(s));

/** A wall time (`YYYY-MM-DD HH:MM:SS`, no zone) as a Date whose UTC fields hold it, for formatting only. */
const wall = (s: string): Date => utcInstant(s);

const dayFormat: Intl.DateTimeFormatOptions = {
  weekday: 'short',
  year: 'numeric',
  month: 'short',
  day: 'numeric',
};
/**
 * The one time format of the page (the calendar's events and time slots, the detail): the browser's
 * language decides 12 or 24 hours (`14:30` in en-GB and de, `02:30 PM` in en-US), never mixed.
 */
export const TIME_FORMAT = {
  hour: '2-digit',
  minute: '2-digit',
} as const satisfies Intl.DateTimeFormatOptions;
const timeFormat: Intl.DateTimeFormatOptions = TIME_FORMAT;

function fmt(d: Date, options: Intl.DateTimeFormatOptions, timeZone?: string): string {
  return new Intl.DateTimeFormat(undefined, { ...options, timeZone }).format(d);
}

/** The day after a `YYYY-MM-DD`: FullCalendar's all-day ends are exclusive. */
export function nextDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** `a – b`, collapsing the second day when both are on the same day. */
function range(start: Date, end: Date, zone: string | undefined, withTime: boolean): string {
  const sameDay = fmt(start, dayFormat, zone) === fmt(end, dayFormat, zone);
  if (!withTime)
    return sameDay
      ? fmt(start, dayFormat, zone)
      : `${fmt(start, dayFormat, zone)} – ${fmt(end, dayFormat, zone)}`;
  const a = `${fmt(start, dayFormat, zone)}, ${fmt(start, timeFormat, zone)}`;
  const b = sameDay
    ? fmt(end, timeFormat, zone)
    : `${fmt(end, dayFormat, zone)}, ${fmt(end, timeFormat, zone)}`;
  return `${a} – ${b}`;
}

/**
 * The dates of an event as a person reads them: all-day events by their own days (no zone), timed ones
 * in the viewer's zone, with the event's own wall times and zone added when they differ from the viewer's.
 */
export function describeDates(e: CalEvent, zone = viewerZone()): { main: string; own?: string } {
  if (e.all_day) return { main: `${range(wall(e.start_date), wall(e.end_date), 'UTC', false)} (all day)` };
  const start = utcInstant(e.utc_start_date ?? '');
  const end = utcInstant(e.utc_end_date ?? '');
  const main = `${range(start, end, zone, true)} (${zoneName(start, zone)})`;
  const ownStart = wall(e.start_date);
  const ownEnd = wall(e.end_date);
  const seen = `${fmt(start, dayFormat, zone)} ${fmt(start, timeFormat, zone)}`;
  const own = `${fmt(ownStart, dayFormat, 'UTC')} ${fmt(ownStart, timeFormat, 'UTC')}`;
  if (seen === own) return { main };
  return { main, own: `${range(ownStart, ownEnd, 'UTC', true)} (${e.timezone || e.timezone_abbr})` };
}

function zoneName(d: Date, zone: string): string {
  const part = new Intl.DateTimeFormat(undefined, { timeZone: zone, timeZoneName: 'short' })
    .formatToParts(d)
    .find((p) => p.type === 'timeZoneName');
  return part?.value ?? zone;
}

/** `YYYY-MM-DDTHH:MM` for a datetime-local input, from the API's wall time. */
export const toInput = (wallTime: string): string => wallTime.slice(0, 16).replace(' ', 'T');

/** The API's `YYYY-MM-DD HH:MM:SS` from a datetime-local value (empty stays empty). */
export const fromInput = (value: string): string =>
  value ? `${value.replace('T', ' ')}:00`.slice(0, 19) : '';

/** How the page names an event's status. */
const STATUS_LABEL: Record<string, string> = {
  publish: 'Published',
  draft: 'Draft',
  pending: 'Pending review',
  private: 'Private',
  future: 'Scheduled',
  trash: 'In the trash',
};
export const statusLabel = (s: string) => STATUS_LABEL[s] ?? s;
