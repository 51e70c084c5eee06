import { backgroundPart } from '../../shared/contracts/background';
import type { Resolve } from '../../shared/outbound/guarded-fetch';
import { deleteJob, dueJobs, type JobRef, putJob } from '../../shared/repositories/webhook-deliveries';
import { runJob } from '../../shared/services/webhooks/engine';
import { invokeUnderTimeout } from '../jobs';

const JOB_PAGE = 50;
/** A job whose run failed (the table busy, a bug) is tried again this much later, not in a tight loop. */
const JOB_ERROR_DELAY_MS = 5_000;
/** Deployed, a job runs in the deliverer's function: locally it gets that function's time. */
const DELIVERER = backgroundPart('webhookDeliver');

export interface DelivererOptions {
  /** Jobs run at once (deliveries of one record still go one after the other). */
  concurrency: number;
  /** Name resolution for deliveries (tests give their own); the system's otherwise. */
  resolve?: Resolve;
  /** Pauses for `ms`; true when woken before (local/webhook-engine/pauses.ts). */
  sleep: (ms: number) => Promise<boolean>;
  pollMs: number;
  log: (line: string) => void;
}

/**
 * The local deliverer: due jobs of the table, up to `concurrency` at once; a job is deleted once it has
 * run. Returns its step and what stopping waits for.
 */
export function localDeliverer(o: DelivererOptions) {
  /** The jobs being run, by key: a page read meanwhile lists them again until they are deleted. */
  const inFlight = new Map<string, Promise<void>>();
  const jobKey = (j: JobRef) => `${j.due_ms}#${j.webhook}#${j.delivery}`;

  async function runOne(job: JobRef): Promise<void> {
    const outcome = await invokeUnderTimeout(
      DELIVERER,
      () => runJob(job, { resolve: o.resolve }),
      DELIVERER.timeoutSeconds * 1000,
      job,
    );
    if (outcome.status !== 'ok') {
      const why = outcome.status === 'failed' ? outcome.error.message : 'timed out';
      o.log(`webhooks: job of delivery ${job.delivery} failed (${why}); trying again shortly`);
      await putJob({ ...job, due_ms: Date.now() + JOB_ERROR_DELAY_MS }).catch(() => {});
    }
    await deleteJob(job);
  }

  /**
   * Starts due jobs in the free slots, then waits for a slot to come free or for new jobs: a job that
   * ends lets the next due one start at once, rather than after the rest of its page. True while jobs
   * run (read again at once), false when none does (the loop pauses until it is woken).
   */
  async function runDue(): Promise<boolean> {
    if (inFlight.size < o.concurrency) {
      const jobs = (await dueJobs(Date.now(), JOB_PAGE)).filter((j) => !inFlight.has(jobKey(j)));
      for (const job of jobs.slice(0, o.concurrency - inFlight.size)) {
        const key = jobKey(job);
        inFlight.set(
          key,
          runOne(job)
            .catch((e: Error) => o.log(`webhooks: job of delivery ${job.delivery} stumbled (${e.message})`))
            .finally(() => inFlight.delete(key)),
        );
      }
    }
    if (!inFlight.size) return false;
    // A slot coming free, new jobs (wake) or the poll, whichever is first: a long attempt holds no
    // later job back.
    await Promise.race([...inFlight.values(), o.sleep(o.pollMs)]);
    return true;
  }

  return { runDue, settled: () => Promise.all(inFlight.values()) };
}
