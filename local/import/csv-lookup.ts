import { CalApiError } from '../../client/src';
import type { ApiClient } from '../seed';
import type { Progress } from './progress';

/**
 * Which target event a CSV row without a slug already is, when the state file does not say (a first
 * run, or the file lost): an event of the same name and start. Asking per row costs two searches (listed
 * events, then those hidden from listings: a list shows them only when asked), twice the create itself.
 * So the rows are sorted by start and taken a window of WINDOW_ROWS at a time: the target's events of
 * the window's days are listed once, a few pages for hundreds of rows. A window whose days hold more
 * target events than asking row by row would read is left to `search` (`undefined` from `lookUp`).
 */

export interface Wanted {
  title: string;
  /** The row's start (`YYYY-MM-DD`, or with a time): the event's `start_date` begins with it. */
  start: string;
}

const WINDOW_ROWS = 200;
const PER_PAGE = 50;
const EVERY_STATUS = ['publish', 'future', 'draft', 'pending', 'private'] as const;

export const identityOf = (w: Wanted) => `${w.title}\u0000${w.start}`;

/** The target's events of `day`..`to` (listed, then hidden), or undefined when that is more than `pages` pages. */
async function eventsOf(
  api: ApiClient,
  day: string,
  to: string,
  pages: number,
): Promise<Array<{ id: number; title: string; start_date: string }> | undefined> {
  const out: Array<{ id: number; title: string; start_date: string }> = [];
  let read = 0;
  for (const hidden of [false, true]) {
    const query = {
      start_date: day,
      end_date: to,
      status: [...EVERY_STATUS],
      per_page: PER_PAGE,
      ...(hidden ? { hide_from_listings: true } : {}),
    };
    try {
      for await (const page of api.pages('listEvents', { query })) {
        const p = page as { events: typeof out; total_pages: number };
        if (read === 0 && p.total_pages > pages) return undefined;
        read++;
        out.push(...p.events);
      }
    } catch (e) {
      // An empty window's first page is 200 with no events; a 404 is a page gone since (deleted meanwhile).
      if (!(e instanceof CalApiError && e.status === 404)) throw e;
    }
  }
  return out;
}

/**
 * The IDs of the `wanted` events at the target, by identityOf; a row whose window was too full to list
 * is absent from `looked` and is searched for by itself.
 */
export async function lookUp(
  api: ApiClient,
  wanted: Wanted[],
  progress: Progress,
): Promise<{ found: Map<string, number>; looked: Set<string> }> {
  const found = new Map<string, number>();
  const looked = new Set<string>();
  if (!wanted.length) return { found, looked };
  const sorted = [...wanted].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const windows = Math.ceil(sorted.length / WINDOW_ROWS);
  progress.phase('looking up rows at the target', sorted.length);
  for (let w = 0; w < windows; w++) {
    const rows = sorted.slice(w * WINDOW_ROWS, (w + 1) * WINDOW_ROWS);
    const day = rows[0]!.start.slice(0, 10);
    const to = rows[rows.length - 1]!.start.slice(0, 10);
    const events = await eventsOf(api, day, to, rows.length);
    if (events) {
      const byTitle = new Map<string, typeof events>();
      for (const e of events) {
        const same = byTitle.get(e.title);
        if (same) same.push(e);
        else byTitle.set(e.title, [e]);
      }
      for (const row of rows) {
        const key = identityOf(row);
        const match = byTitle.get(row.title)?.find((e) => e.start_date.startsWith(row.start));
        if (match && !found.has(key)) found.set(key, match.id);
        looked.add(key);
      }
    }
    progress.tick(Math.min(sorted.length, (w + 1) * WINDOW_ROWS), `${found.size} found`);
  }
  return { found, looked };
}
