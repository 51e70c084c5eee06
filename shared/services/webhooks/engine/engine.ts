import { deleteJob, type JobRef } from '../../../repositories/webhook-deliveries';
import type { JobQueue } from '../../../repositories/webhook-job-queue';
import { changeOfRecord, jobOfRecord, type StreamRecordLike } from '../../../repositories/webhook-stream';
import { runJob, type DeliverOptions } from './delivery';
import { dispatchChangesUntil, streamOrder } from '..';

/**
 * The deployed engine's two steps around the shared dispatcher and deliverer (docs/webhooks.md,
 * "Engine"): a batch of the table's stream (new change-log items and new jobs) and one job handed over
 * by the delivery queue. functions/webhook-engine/ are their Lambda handlers.
 */

/** A job whose message comes this early runs anyway (SQS's delays are whole seconds). */
const EARLY_MS = 1000;

/**
 * What a stream batch keeps of its function's time when it stops early: one change's deliveries to a
 * few dozen subscribers (a payload read, then a lane read and a transaction each) fit in it.
 */
export const STREAM_BATCH_RESERVE_MS = 10_000;

/**
 * Dispatches the batch's changes (in stream order), then moves each new job to the queue and deletes
 * it from the table. Returns the sequence number of the first record that must be read again, if any:
 * everything from there is, and both steps are safe to repeat (a delivery's ID is its change's
 * position; a job sent twice is attempted once, shared/services/webhooks/engine/delivery.ts). Once `timeIsUp`
 * says so it stops before the next record (never before the first), which is then the one named:
 * a batch that outlives its function would be retried whole at the same cost.
 */
export async function processStreamBatch(
  records: StreamRecordLike[],
  queue: JobQueue,
  log: (message: string, error: unknown) => void = () => {},
  timeIsUp: () => boolean = () => false,
): Promise<string | undefined> {
  const sequence = (r: StreamRecordLike) => r.dynamodb?.SequenceNumber ?? '';
  const changes = records.flatMap((r) => {
    const entry = changeOfRecord(r);
    return entry ? [{ entry, order: streamOrder(sequence(r)), record: r }] : [];
  });
  let failed: StreamRecordLike | undefined;
  try {
    const { dispatched } = await dispatchChangesUntil(changes, timeIsUp);
    if (dispatched < changes.length) failed = changes[dispatched]!.record;
  } catch (e) {
    log('Dispatching changes failed', e);
    failed = changes[0]!.record;
  }
  let done = changes.length > 0 && failed !== changes[0]?.record;
  for (const r of records) {
    if (failed && streamOrder(sequence(r)) >= streamOrder(sequence(failed))) break;
    const job = jobOfRecord(r);
    if (!job) continue;
    if (done && timeIsUp()) {
      failed = r;
      break;
    }
    try {
      await queue.enqueue(job);
      await deleteJob(job);
      done = true;
    } catch (e) {
      log('Moving a job to the queue failed', e);
      failed = r;
      break;
    }
  }
  return failed && sequence(failed);
}

/**
 * Runs one job the queue handed over; one due later than SQS could delay it (15 minutes) goes back to
 * the queue until then. Throws when the job could not run, so that the queue hands it over again.
 */
export async function deliverQueuedJob(job: JobRef, queue: JobQueue, o: DeliverOptions = {}): Promise<void> {
  if (job.due_ms > Date.now() + EARLY_MS) return queue.enqueue(job);
  await runJob(job, o);
}
