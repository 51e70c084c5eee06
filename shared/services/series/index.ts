/** Recurring events: series writes, their journal, the finisher and the extend job. */
export { removeSeriesPart } from './delete';
export { extendAllSeries, type ExtendProgress } from './extend';
export { FINISHER_LEASE_MS, finishDueSeriesWrites, type FinisherRun } from './finisher';
export { finishJournal } from './journal';
export {
  creatingSeries,
  updatingOccurrence,
  type Scope,
  type SeriesHook,
  type SeriesProgress,
} from './series';
export { seriesPending } from './state';
