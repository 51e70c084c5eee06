import type { EventData } from '../../domain/event-record';
import { getPost } from '../../repositories/posts';
import { getSeries, type SeriesItem } from '../../repositories/series';

/**
 * Whether a series is still being written (issue 38, docs/recurrence.md): how many of its occurrences
 * its journal still holds, what `GET /events?series=` says in `X-Cal-Series-Pending` (0 once whole).
 * The count is what the journal's last writer left when it stopped (the request's 202 says the same),
 * or, while its first writer is still at work, every occurrence the journal names: at most that many.
 */
export async function seriesPending(occurrenceId: number): Promise<number | undefined> {
  const series = await seriesOf(occurrenceId);
  if (!series) return undefined;
  const journal = series.journal;
  return journal ? (journal.pending ?? journal.entries.length) : 0;
}

/** The series of any of its occurrences: its first occurrence's ID is the series' own (one read). */
async function seriesOf(occurrenceId: number): Promise<SeriesItem | undefined> {
  const own = await getSeries(occurrenceId);
  if (own) return own;
  const event = await getPost<EventData>(occurrenceId);
  const id = event?.type === 'event' ? event.data.series?.id : undefined;
  return id === undefined ? undefined : getSeries(id);
}
