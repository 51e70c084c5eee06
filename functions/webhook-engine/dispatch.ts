import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { config, SERVICE_NAME } from '../../shared/config';
import { powertoolsLogger } from '../../shared/http/powertools-logger';
import { sqsJobQueue } from '../../shared/repositories/webhook-job-queue';
import type { StreamRecordLike } from '../../shared/repositories/webhook-stream';
import { processStreamBatch, STREAM_BATCH_RESERVE_MS } from '../../shared/services/webhooks/engine';

/**
 * The webhook dispatcher, deployed (docs/webhooks.md, "Engine"; infra/webhook-engine.ts): invoked by
 * the event source mapping on the table's stream, filtered to new change-log items and jobs. Makes
 * the deliveries of the changes and moves each job to the delivery queue. A failure names the first
 * record to read again (ReportBatchItemFailures): Lambda retries the batch from there. So does a batch
 * that would outlive the function: it stops with STREAM_BATCH_RESERVE_MS left and names the next record,
 * instead of timing out and being retried whole at the same cost.
 */
const log = powertoolsLogger(SERVICE_NAME, { function: 'webhookDispatch' });

export async function handler(event: DynamoDBStreamEvent, context: Context): Promise<DynamoDBBatchResponse> {
  const failed = await processStreamBatch(
    event.Records as StreamRecordLike[],
    sqsJobQueue(config.webhookQueueUrl),
    (message, error) => log.error(message, error as Error),
    () => context.getRemainingTimeInMillis() < STREAM_BATCH_RESERVE_MS,
  );
  if (failed) log.info('The stream batch is read again from a record', { next: failed });
  return { batchItemFailures: failed ? [{ itemIdentifier: failed }] : [] };
}
