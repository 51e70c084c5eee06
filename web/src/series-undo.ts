import { type CalEvent, cal, listAll } from './api';

/**
 * Undo of a series' trash (issue 29): "All events" or "This and following events" trashed every
 * occurrence of a series (the latter after splitting it there, docs/recurrence.md, so the occurrence
 * trashed is the first of a series of its own). The API restores them as it changes them: an update of
 * the status with `scope=all` on that occurrence. That update also brings back the occurrences that were
 * cancelled (trashed on their own) before, so they are read first and cancelled again after.
 */
export interface SeriesTrash {
  /** The trashed occurrences' restore, back to `status`; answers how many are cancelled still. */
  undo: (etag: string | null) => Promise<number>;
}

/** Reads what the series' trash will leave cancelled; call before trashing. */
export async function beforeSeriesTrash(e: CalEvent, scope: 'all' | 'following'): Promise<SeriesTrash> {
  const trashed = await listAll('listEvents', {
    query: {
      series: e.id,
      status: ['trash'],
      // Every date of the series (past ones too): a restore of all of them would bring back any.
      start_date: '1970-01-01 00:00:00',
      end_date: '2999-12-31 23:59:59',
      per_page: 50,
    },
  });
  const cancelled = trashed
    .filter((o) => o.id !== e.id && (scope === 'all' || o.start_date >= e.start_date))
    .map((o) => o.id);
  return {
    undo: async (etag) => {
      await cal.updateEvent({
        path: { id: e.id },
        query: { scope: 'all' },
        body: { status: e.status },
        ifMatch: etag,
      });
      for (const id of cancelled) await cal.deleteEvent({ path: { id }, query: { scope: 'this' } });
      return cancelled.length;
    },
  };
}
