import { siteDate } from './clock';
import type { DateBounds } from './date-bounds';
import type { WindowQuery } from './event-window';

const BOUNDS: Array<keyof WindowQuery> = [
  'start_date',
  'end_date',
  'starts_before',
  'starts_after',
  'ends_before',
  'ends_after',
];

/** Whether an event list asks for the default window: no date bound and whole days. */
export const isDefaultWindow = (q: WindowQuery): boolean =>
  q.strict_dates !== true && BOUNDS.every((k) => q[k] === undefined);

const DAY_MS = 86_400_000;
const ymd = (y: number, m: number, d: number) =>
  `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

/**
 * The default window of an event list (event-window.ts windowWith with no bound given): the beginning
 * of yesterday to the end of the same day 24 months ahead (the last day of that month when it has
 * fewer days), in the site zone. Calendar arithmetic on the site's date, without luxon: the default
 * listing, most list requests, needs no time-zone library (a test holds the two equal).
 */
export function defaultWindow(at: Date = new Date()): DateBounds {
  const today = siteDate(at);
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const yesterday = new Date(Date.UTC(y, m - 1, d) - DAY_MS).toISOString().slice(0, 10);
  const lastDay = new Date(Date.UTC(y + 2, m, 0)).getUTCDate();
  return {
    startMin: `${yesterday} 00:00:00`,
    endMax: `${ymd(y + 2, m, Math.min(d, lastDay))} 23:59:59`,
    startBefore: undefined,
    startAfter: undefined,
    endBefore: undefined,
    endAfter: undefined,
    dayAligned: true,
  };
}

/**
 * The date window of an event list at `now` (the current time when not given): the default one from
 * the site's date, any other read by event-window.ts (loaded by the first request that needs it) with
 * Intl, or with luxon (loaded on first use) for the inputs only luxon reads (time-maths.ts).
 */
export async function listWindow(q: WindowQuery, now?: Date): Promise<DateBounds> {
  if (!now && isDefaultWindow(q)) return defaultWindow();
  return (await import('./event-window')).windowAt(q, now ?? new Date());
}
