import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { type JobRef, putJob } from './webhook-deliveries';

/**
 * Where a delivery job waits until it is due (docs/webhooks.md, "Engine"). Jobs are first written to
 * the table, in the same transaction as what makes them necessary; the local engine runs them from
 * there (tableJobQueue: the table is its queue), while deployed the dispatcher moves each new one to
 * SQS (sqsJobQueue) and the deliverer function runs it when SQS hands it over.
 */
export interface JobQueue {
  enqueue(job: JobRef): Promise<void>;
}

export const tableJobQueue: JobQueue = { enqueue: putJob };

/** SQS's longest message delay: a job due later waits this long, then is sent again (jobWaitSeconds). */
export const SQS_MAX_DELAY_SECONDS = 900;

/** The delay a job's message is sent with: until it is due, at most SQS's 15 minutes. */
export const jobWaitSeconds = (job: JobRef, nowMs: number) =>
  Math.min(SQS_MAX_DELAY_SECONDS, Math.max(0, Math.ceil((job.due_ms - nowMs) / 1000)));

/** A job as its message's body says; undefined for a body that is not one (never sent by us). */
export function jobOfMessage(body: string): JobRef | undefined {
  try {
    const j = JSON.parse(body) as Partial<JobRef>;
    if (Number.isInteger(j.webhook) && typeof j.delivery === 'string' && Number.isFinite(j.due_ms))
      return { webhook: j.webhook!, delivery: j.delivery, due_ms: j.due_ms! };
  } catch {
    // not JSON: below
  }
  return undefined;
}

let client: SQSClient | undefined;

/** The delivery queue deployed: one message a job, delayed until it is due (or 15 minutes). */
export function sqsJobQueue(queueUrl: string, sqs: SQSClient = (client ??= new SQSClient({}))): JobQueue {
  return {
    async enqueue(job) {
      await sqs.send(
        new SendMessageCommand({
          QueueUrl: queueUrl,
          MessageBody: JSON.stringify(job),
          DelaySeconds: jobWaitSeconds(job, Date.now()),
        }),
      );
    },
  };
}
