import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { config, SERVICE_NAME } from '../../shared/config';
import { powertoolsLogger } from '../../shared/http/powertools-logger';
import { jobOfMessage, sqsJobQueue } from '../../shared/repositories/webhook-job-queue';
import { deliverQueuedJob } from '../../shared/services/webhooks/engine';

/**
 * The webhook deliverer, deployed (docs/webhooks.md, "Engine"; infra/webhook-engine.ts): invoked by
 * the delivery queue with up to ten jobs, run at once (a record's deliveries still go one after the
 * other: their lanes). A receiver's failure is not a failed job (the delivery records it and schedules
 * its next try); a job that could not run at all is reported by its message, which the queue hands over
 * again and, after five tries, moves to the dead-letter queue.
 */
const log = powertoolsLogger(SERVICE_NAME, { function: 'webhookDeliver' });

export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const queue = sqsJobQueue(config.webhookQueueUrl);
  const outcomes = await Promise.allSettled(
    event.Records.map(async (m) => {
      const job = jobOfMessage(m.body);
      // Not a job (nothing of ours sends such a message): nothing to retry, so it is dropped.
      if (!job) return log.warn('Not a webhook job: dropped', { messageId: m.messageId });
      await deliverQueuedJob(job, queue);
    }),
  );
  const failures = event.Records.filter((m, i) => {
    const o = outcomes[i]!;
    if (o.status === 'rejected')
      log.error('A webhook job failed', { messageId: m.messageId, error: o.reason });
    return o.status === 'rejected';
  });
  return { batchItemFailures: failures.map((m) => ({ itemIdentifier: m.messageId })) };
}
