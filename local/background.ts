/**
 * The local stack's background parts, as `npm start` runs them beside the gateway (the deployed stack's
 * webhook engine and scheduled jobs, shared/contracts/background.ts): the webhook engine on the table's
 * stream, and the job runner (local/jobs.ts), which invokes the jobs' handlers on their schedules sped
 * up locally. Idle, together they issue a few DynamoDB calls a second at most
 * (test/integration/idle-stack.test.ts). Imported after the environment is set: the handlers' modules
 * read it when they load.
 */
export interface Background {
  /** Stops the jobs (waiting for a run under way), then the webhook engine. */
  stop: () => Promise<void>;
}

export async function startBackground(o: {
  endpoint: string;
  tableName: string;
  log?: (line: string) => void;
}): Promise<Background> {
  // Webhooks: the dispatcher on the table's stream and the deliverer on its jobs (docs/webhooks.md).
  const webhooks = await (await import('./webhooks')).startWebhookEngine(o);
  // The extend job, the finisher of series writes, feed re-syncs and scheduled publication.
  const jobs = (await import('./jobs')).startJobs({ log: o.log });
  return {
    async stop() {
      await jobs.stop();
      await webhooks.stop();
    },
  };
}
