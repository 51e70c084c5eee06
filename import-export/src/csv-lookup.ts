import { LIVE_STATUSES } from '../../shared/domain/statuses';
import type { ApiClient } from './api-client';
import type { Progress } from './progress';

/**
 * Which target event a CSV row without a slug already is, when the state file does not say (a first
 * run, or the file lost): an event of the same name and start. Asking per row costs two searches (listed
 * events, then those hidden from listings: a list shows them only when asked), twice the create itself.
 * So the rows are sorted by start and taken a window of WINDOW_ROWS at a time: the target's events of
 * the window's days are listed once, a few pages for hundreds of rows. A window whose days hold more
 * target events than asking row by row would read is left out of `lookUp`'s answer: its rows are
 * searched for one by one.
 */

export interface Wanted {
  title: string;
  /** The row's start (`YYYY-MM-DD`, or with a time): the event's `start_date` begins with it. */
  start: string;
}

const WINDOW_ROWS = 200;
const PER_PAGE = 50;

export const identityOf = (w: Wanted) => `${w.title}\u0000${w.start}`;

type Listed = { id: number; title: string; start_date: string };

/**
 * The target's events of `day`..`to`, listed then hidden, or undefined when either list is longer than
 * `pages` pages (longer than searching its rows one by one would read).
 */
async function eventsOf(
  api: ApiClient,
  day: string,
  to: string,
  pages: number,
): Promise<Listed[] | undefined> {
  const out: Listed[] = [];
  for (const hidden of [false, true]) {
    const query = {
      start_date: day,
      end_date: to,
      status: [...LIVE_STATUSES],
      per_page: PER_PAGE,
      ...(hidden ? { hide_from_listings: true } : {}),
    };
    let first = true;
    for await (const page of api.pages('listEvents', { query })) {
      const p = page as { events: Listed[]; total_pages: number };
      if (first && p.total_pages > pages) return undefined;
      first = false;
      out.push(...p.events);
    }
  }
  return out;
}

/**
 * The `wanted` rows looked up at the target, by identityOf: the ID of the event each already is, or
 * undefined when there is none. A row whose window was too full to list has no entry.
 */
export async function lookUp(
  api: ApiClient,
  wanted: Wanted[],
  progress: Progress,
): Promise<Map<string, number | undefined>> {
  const looked = new Map<string, number | undefined>();
  if (!wanted.length) return looked;
  let found = 0;
  const sorted = [...wanted].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  progress.phase('looking up rows at the target', sorted.length);
  for (let at = 0; at < sorted.length; at += WINDOW_ROWS) {
    const rows = sorted.slice(at, at + WINDOW_ROWS);
    const events = await eventsOf(
      api,
      rows[0]!.start.slice(0, 10),
      rows.at(-1)!.start.slice(0, 10),
      rows.length,
    );
    if (events) {
      const byTitle = new Map<string, Listed[]>();
      for (const e of events) {
        const same = byTitle.get(e.title);
        if (same) same.push(e);
        else byTitle.set(e.title, [e]);
      }
      for (const row of rows) {
        const key = identityOf(row);
        if (looked.get(key) !== undefined) continue;
        const id = byTitle.get(row.title)?.find((e) => e.start_date.startsWith(row.start))?.id;
        looked.set(key, id);
        if (id !== undefined) found++;
      }
    }
    progress.tick(at + rows.length, `${found} found`);
  }
  return looked;
}
