import { type ExtendProgress, extendAllSeries } from '../shared/services/series';
import { repeatJob } from './repeating-job';

/**
 * The extend job of recurring events in the local stack (docs/recurrence.md): once when `npm start`
 * starts, which also finishes any series write a killed stack left half done, and then every hour, so
 * open-ended series keep reaching the horizon as they do deployed on the daily schedule.
 */
const EVERY_MS = 60 * 60 * 1000;

export interface SeriesTimerOptions {
  log?: (line: string) => void;
  /** Time between runs: an hour; tests give a few milliseconds. */
  everyMs?: number;
  /** The job: extendAllSeries; tests give a stand-in. */
  job?: () => Promise<ExtendProgress>;
}

export function startSeriesTimer(o: SeriesTimerOptions = {}): { stop: () => Promise<void> } {
  const { log = console.log, everyMs = EVERY_MS, job = () => extendAllSeries() } = o;
  const extend = () =>
    job()
      .then((r) => {
        if (r.finished || r.added)
          log(`Recurring series: ${r.finished} interrupted writes finished, ${r.added} occurrences added.`);
      })
      .catch((e: Error) =>
        log(`Recurring series could not be extended (${e.message}); next try in an hour.`),
      );
  return repeatJob(extend, { everyMs, atStart: true });
}
