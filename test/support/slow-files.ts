/**
 * The files that take longest, slowest first, as a full run's closing lines name them (its ten slowest
 * files, test/support/summary-reporter.ts), with the ones that start `npm start` or a browser, or
 * bundle and synthesize the app. The sequencer (test/support/sequencer.ts) starts these first, so that
 * no long file starts last while the other workers sit idle. Only the order depends on this list: a
 * file missing from it still runs, after them.
 */
export const SLOW_FILES = [
  'test/integration/deployed-bundles.test.ts',
  'test/integration/hostile-input.test.ts',
  'test/integration/durability.test.ts',
  'test/integration/authorization-matrix.test.ts',
  'test/integration/function-bundles.test.ts',
  'test/integration/local-stack-lifecycle.test.ts',
  'test/integration/recurrence-props.test.ts',
  'test/integration/list-params.test.ts',
  'test/integration/concurrent-writes.test.ts',
  'test/integration/events.test.ts',
  'test/integration/event-list.test.ts',
  'test/browser/calendar.test.ts',
  'test/browser/calendar-views.test.ts',
  'test/browser/pages.test.ts',
  'test/browser/editor.test.ts',
  'test/browser/recurrence.test.ts',
  'test/integration/webhooks-delivery.test.ts',
  'test/integration/webhooks-restart.test.ts',
  'test/integration/import-time.test.ts',
  'test/integration/readme-walkthrough.test.ts',
  'test/unit/recurrence-expansion.test.ts',
  'test/unit/intl-times.test.ts',
  'test/handlers/webhook-engine.test.ts',
  'test/unit/publication-now.test.ts',
  'test/unit/bundle-aliases.test.ts',
];
