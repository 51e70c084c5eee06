import { commit } from '../../repositories/unit-of-work';
import { allSeries, getSeries, newOccurrenceIds, seriesWrite } from '../../repositories/series';
import { expand, horizonIn } from './series';
import { finishJournal, newToken } from './journal';

/**
 * The daily extend job (docs/recurrence.md): finishes every journal an interrupted write left, and
 * writes the occurrences of every series without an end up to the horizon, which moves on with time.
 */

export interface ExtendProgress {
  series: number;
  /** Journals finished, series extended, occurrences added, series that could not be extended. */
  finished: number;
  extended: number;
  added: number;
  failed: number;
}

export async function extendAllSeries(
  now = new Date(),
  progress: (p: ExtendProgress) => void = () => {},
): Promise<ExtendProgress> {
  const p: ExtendProgress = { series: 0, finished: 0, extended: 0, added: 0, failed: 0 };
  for await (const head of allSeries()) {
    p.series++;
    if (head.journal) {
      await finishJournal(head.id, Number.POSITIVE_INFINITY);
      p.finished++;
    }
    if (!head.ended) {
      try {
        const added = await extendOne(head.id, now);
        if (added > 0) p.extended++;
        p.added += added;
      } catch (e) {
        // A series that reached the most occurrences a series may hold stays where it is.
        if ((e as { status?: number }).status !== 400) throw e;
        p.failed++;
      }
    }
    progress(p);
  }
  return p;
}

class Changed extends Error {}

/** Adds the occurrences between a series' horizon and the new one; how many it added. */
async function extendOne(id: number, now: Date): Promise<number> {
  const s = await getSeries(id);
  if (!s || s.ended || s.journal) return 0;
  const horizon = await horizonIn(s.timezone, now);
  if (horizon <= s.horizon) return 0;
  const expanded = await expand(s.lines, s, horizon);
  const known = new Set(Object.values(s.members));
  const fresh = expanded.occurrences.map((o) => o.start).filter((st) => st > s.horizon && !known.has(st));
  const ids = fresh.length ? await newOccurrenceIds(fresh.length) : [];
  const next = {
    ...s,
    horizon,
    ended: expanded.ended,
    members: { ...s.members, ...Object.fromEntries(fresh.map((st, i) => [String(ids[i]), st])) },
    version: s.version + 1,
    journal: { token: newToken(), entries: fresh.map((start, i) => ({ id: ids[i]!, start })) },
  };
  try {
    await commit([seriesWrite(next, s.version, () => new Changed())]);
  } catch (e) {
    // Written meanwhile by a request: the next run extends it.
    if (e instanceof Changed) return 0;
    throw e;
  }
  await finishJournal(id, Number.POSITIVE_INFINITY);
  return fresh.length;
}
