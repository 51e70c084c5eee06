import { eventIndexWords } from '../../domain/event-query';
import { eventsStartingBetween } from '../../repositories/events';
import { deleteWordItems, putWordItems, storedWords, wordItem } from '../../repositories/search-index';

export interface ReindexReport {
  events: number;
  added: number;
  removed: number;
}

/**
 * Rebuilds the search index from the event records (`npm run reindex`): every event's word items are
 * compared with the words of its texts, missing ones added and stale ones removed. Event writes keep
 * the index current in their own transactions; this repairs it after a bulk load, a change of the
 * indexing rules or a manual edit. Safe to run while the service serves: an event written meanwhile
 * carries its own words, and the rebuild writes only what that event's record says.
 */
export async function rebuildSearchIndex(
  progress: (r: ReindexReport) => void = () => {},
): Promise<ReindexReport> {
  const report: ReindexReport = { events: 0, added: 0, removed: 0 };
  for await (const e of eventsStartingBetween({ low: '0000', high: '9999~' }, 200)) {
    const want = new Set(eventIndexWords(e));
    const have = new Set(await storedWords(e.id));
    const missing = [...want].filter((w) => !have.has(w));
    const stale = [...have].filter((w) => !want.has(w));
    if (missing.length > 0) await putWordItems(missing.map((w) => wordItem(e.id, w)));
    if (stale.length > 0) await deleteWordItems(e.id, stale);
    report.events++;
    report.added += missing.length;
    report.removed += stale.length;
    if (report.events % 100 === 0) progress(report);
  }
  progress(report);
  return report;
}
