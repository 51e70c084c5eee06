import { eventsStartingBetween, featuredIndexIds, syncFeaturedIndex } from '../../repositories/events';

export interface FeaturedReport {
  events: number;
  added: number;
  removed: number;
}

/**
 * Rebuilds the featured partition (`npm run reindex`): every featured event's record in it, no other.
 * Event writes keep it current; this repairs a table written before the partition existed or edited
 * by hand. Safe while the service serves: an event written meanwhile has a new version and is left
 * to its own write.
 */
export async function rebuildFeaturedIndex(
  progress: (r: FeaturedReport) => void = () => {},
): Promise<FeaturedReport> {
  const indexed = await featuredIndexIds();
  const report: FeaturedReport = { events: 0, added: 0, removed: 0 };
  for await (const e of eventsStartingBetween({ low: '0000', high: '9999~' }, 200)) {
    report.events++;
    if (e.data.featured !== indexed.has(e.id) && (await syncFeaturedIndex(e)))
      report[e.data.featured ? 'added' : 'removed']++;
    if (report.events % 500 === 0) progress(report);
  }
  progress(report);
  return report;
}
