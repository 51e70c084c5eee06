import { batchDelete } from '../db/query';
import { treeScope } from '../domain/tallies';
import { keys } from '../db/keys';
import { addTallies, type Deltas } from '../repositories/event-writes';
import { eventsStartingBetween } from '../repositories/events';
import { clearStaleTree, putTallyItems, staleTrees, treeTallyKeys } from '../repositories/tallies';
import { listTerms } from '../repositories/terms';

export interface TreeReport {
  events: number;
  categories: number;
  items: number;
  /** Categories whose stale flag the rebuild dropped. */
  cleared: number;
}

/**
 * Rebuilds every category's subtree tallies (`TREE#<id>`) from the event records and the category
 * taxonomy (`npm run reindex`), then drops the stale flags it saw when it began: needed after a
 * re-parent or a category delete (lists of the affected ancestors read the links meanwhile), and once
 * on a table written before subtree tallies existed. The counts are written whole, so it must run while
 * no events are written (an event write meanwhile could be lost from them); a re-parent meanwhile keeps
 * its flag.
 */
export async function rebuildTreeTallies(progress: (r: TreeReport) => void = () => {}): Promise<TreeReport> {
  const terms = await listTerms('tribe_events_cat');
  const parentOf = new Map(terms.map((t) => [t.id, t.parent]));
  const flags = await staleTrees(terms.map((t) => t.id));
  const report: TreeReport = { events: 0, categories: terms.length, items: 0, cleared: 0 };
  // Only the subtrees of categories that exist (one being deleted loses its tallies anyway).
  const partitions = new Set(terms.map((t) => keys.tallyPartition(treeScope(t.id))));
  const deltas: Deltas = new Map();
  const perEvent: Deltas = new Map();
  for await (const e of eventsStartingBetween({ low: '0000', high: '9999~' }, 200)) {
    report.events++;
    if (e.data.categories.length === 0) continue;
    perEvent.clear();
    addTallies(perEvent, e, 1, new Set(), parentOf);
    for (const [id, d] of perEvent) {
      if (!partitions.has(d.key.pk)) continue;
      const entry = deltas.get(id) ?? { key: d.key, adds: new Map<string, number>() };
      for (const [attr, n] of d.adds) entry.adds.set(attr, (entry.adds.get(attr) ?? 0) + n);
      deltas.set(id, entry);
    }
    if (report.events % 500 === 0) progress(report);
  }
  const wanted = new Set(deltas.keys());
  for (const t of terms) {
    const stray = (await treeTallyKeys(t.id)).filter((k) => !wanted.has(`${k.pk}|${k.sk}`));
    await batchDelete(stray);
  }
  const items = [...deltas.values()].map(({ key, adds }) => ({ ...key, ...Object.fromEntries(adds) }));
  await putTallyItems(items);
  report.items = items.length;
  for (const [id, seen] of flags) {
    await clearStaleTree(id, seen);
    report.cleared++;
  }
  progress(report);
  return report;
}
