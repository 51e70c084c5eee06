/**
 * What `npm start` prints after a job's run that did something, by part (shared/contracts/background.ts),
 * from what its handler returned; a run that did nothing prints nothing. Deployed, the handlers' own
 * log lines say it (functions/jobs/*).
 */
type Result = Record<string, number | undefined>;

const SUMMARIES: Record<string, (r: Result) => string | undefined> = {
  extendSeries: (r) =>
    r.finished || r.added
      ? `Recurring series: ${r.finished ?? 0} interrupted writes finished, ${r.added ?? 0} occurrences added.`
      : undefined,
  finishSeriesWrites: (r) =>
    r.finished ? `Recurring series: ${r.finished} series writes finished.` : undefined,
  publishScheduled: (r) => (r.published ? `Scheduled posts: ${r.published} published.` : undefined),
  sendMail: (r) => (r.sent ? `Mail: ${r.sent} written to the outbox.` : undefined),
  resyncImports: (r) => (r.ran ? `Feed imports: ${r.ran} re-synced.` : undefined),
};

export function jobSummary(part: string, result: unknown): string | undefined {
  const summary = SUMMARIES[part];
  return summary && result && typeof result === 'object' ? summary(result as Result) : undefined;
}
