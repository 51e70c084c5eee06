/**
 * The local stack's background parts, as `npm start` runs them beside the gateway (the deployed stack's
 * webhook engine and scheduled jobs): the webhook engine, the series extend job, the series finisher
 * the feed re-syncs and scheduled publication. Idle, together they issue a few DynamoDB calls a second at most
 * (test/integration/idle-stack.test.ts). Imported after the environment is set: the handlers' modules
 * read it when they load.
 */
export interface Background {
  /** Stops the timers (waiting for a run under way), then the webhook engine. */
  stop: () => Promise<void>;
}

export async function startBackground(o: {
  endpoint: string;
  tableName: string;
  log?: (line: string) => void;
}): Promise<Background> {
  // Webhooks: the dispatcher on the table's stream and the deliverer on its jobs (docs/webhooks.md).
  const webhooks = await (await import('./webhooks')).startWebhookEngine(o);
  const log = o.log;
  // Recurring series: extended to the horizon now and every hour (the deployed stack's daily schedule).
  const seriesTimer = (await import('./series-timer')).startSeriesTimer({ log });
  // What a series write left when it answered: finished within seconds (deployed, every minute).
  const seriesFinisher = (await import('./series-finisher')).startSeriesFinisher({ log });
  // Feed imports with resync_minutes: fetched and synced again when due (deployed, the resync job).
  const importTimer = (await import('./import-timer')).startImportTimer({ log });
  // Scheduled (`future`) posts: published when their date comes (deployed, every minute).
  const publishTimer = (await import('./publish-timer')).startPublishTimer({ log });
  // Attendees' e-mails: the outbox's due mails written to .data/outbox (deployed, the sendMail job).
  const mailTimer = (await import('./mail-timer')).startMailTimer({ log });
  return {
    async stop() {
      await mailTimer.stop();
      await importTimer.stop();
      await publishTimer.stop();
      await seriesFinisher.stop();
      await seriesTimer.stop();
      await webhooks.stop();
    },
  };
}
