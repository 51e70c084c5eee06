import {
  allScope,
  featuredScope,
  linkedScope,
  type TallyScope,
  ticketedScope,
  treeScope,
} from '../../domain/tallies';
import { addTallies, type Deltas } from '../../repositories/event-writes';
import { eventsStartingBetween } from '../../repositories/events';
import { postsNewestFirst } from '../../repositories/posts';
import {
  clearStaleTree,
  deleteTallyItems,
  putTallyItems,
  staleTrees,
  tallyKeys,
  tallyPartition,
} from '../../repositories/tallies';
import { listTerms } from '../../repositories/terms';

export interface TallyReport {
  events: number;
  /** Tally partitions looked at: every scope an event can be counted in. */
  scopes: number;
  items: number;
  /** Items no event counts any more (or of an older layout, such as the day items before month tallies). */
  removed: number;
  /** Categories whose stale flag the rebuild dropped. */
  cleared: number;
}

/** How many partitions are cleaned at once. */
const PARALLEL = 16;

/**
 * Rebuilds every tally (`npm run reindex`): all events, featured, ticketed, each term, venue and organizer, and
 * each category's subtree (`TREE#<id>`), from the event records and the category taxonomy; removes the
 * items no event counts; then drops the stale flags it saw when it began. Needed after a re-parent or
 * a category delete (lists of the affected ancestors read the links meanwhile), and once on a table
 * written before month tallies. The counts are written whole, so it must run while no events are
 * written (an event write meanwhile could be lost from them); a re-parent meanwhile keeps its flag.
 */
export async function rebuildTallies(progress: (r: TallyReport) => void = () => {}): Promise<TallyReport> {
  const [categories, tags, venues, organizers] = await Promise.all([
    listTerms('tribe_events_cat'),
    listTerms('post_tag'),
    ids(postsNewestFirst('venue')),
    ids(postsNewestFirst('organizer')),
  ]);
  const parentOf = new Map(categories.map((t) => [t.id, t.parent]));
  const flags = await staleTrees(categories.map((t) => t.id));
  const scopes: TallyScope[] = [
    allScope,
    featuredScope,
    ticketedScope,
    ...[...categories, ...tags].map((t) => linkedScope({ kind: 'TERM', id: t.id })),
    ...categories.map((t) => treeScope(t.id)),
    ...venues.map((id) => linkedScope({ kind: 'VENUE', id })),
    ...organizers.map((id) => linkedScope({ kind: 'ORGANIZER', id })),
  ];
  const report: TallyReport = { events: 0, scopes: scopes.length, items: 0, removed: 0, cleared: 0 };
  const deltas: Deltas = new Map();
  for await (const e of eventsStartingBetween({ low: '0000', high: '9999~' }, 200)) {
    report.events++;
    addTallies(deltas, e, 1, new Set(), parentOf);
    if (report.events % 500 === 0) progress(report);
  }
  // Only the scopes of records that exist (one being deleted loses its tallies anyway).
  const partitions = new Set(scopes.map(tallyPartition));
  const items = [...deltas.values()]
    .filter(({ key }) => partitions.has(key.pk))
    .map(({ key, adds }) => ({ ...key, ...Object.fromEntries([...adds].filter(([, n]) => n !== 0)) }));
  const wanted = new Set(items.map((i) => `${i.pk}|${i.sk}`));
  for (let i = 0; i < scopes.length; i += PARALLEL) {
    const found = await Promise.all(scopes.slice(i, i + PARALLEL).map(tallyKeys));
    const stray = found.flat().filter((k) => !wanted.has(`${k.pk}|${k.sk}`));
    await deleteTallyItems(stray);
    report.removed += stray.length;
  }
  await putTallyItems(items);
  report.items = items.length;
  for (const [id, seen] of flags) {
    await clearStaleTree(id, seen);
    report.cleared++;
  }
  progress(report);
  return report;
}

async function ids(records: AsyncIterable<{ id: number }>): Promise<number[]> {
  const out: number[] = [];
  for await (const r of records) out.push(r.id);
  return out;
}
