import { Webhook } from 'standardwebhooks';
import { config } from '../../../config';
import { DEFAULT_RETRY_SCHEDULE, DISABLE_AFTER_MS, outcomeOf, retryDelayMs } from '../../../domain/webhooks';
import { guardedFetch, OutboundFailed, OutboundRefused, type Resolve } from '../../../outbound/guarded-fetch';
import {
  type Attempt,
  claimDelivery,
  type DeliveryRecord,
  getDelivery,
  type JobRef,
  laneHead,
  putJob,
  settleDelivery,
} from '../../../repositories/webhook-deliveries';
import { getWebhook, updateWebhook, type WebhookRecord } from '../../../repositories/webhooks';

/**
 * The deliverer: runs one job, i.e. looks at one delivery when it is due and, if it is its lane's
 * turn, makes one signed attempt through the guarded fetch and records what came of it (the next try,
 * or the end of the delivery and the turn of the next one in its lane). The local stack runs it on the
 * jobs in the table (local/webhooks.ts); deployed, the deliverer function runs it on SQS messages.
 */

export interface DeliverOptions {
  /** Name resolution for the connection (tests give their own); the system's otherwise. */
  resolve?: Resolve;
  random?: () => number;
}

/** Bytes of a receiver's answer read: enough for its status, never a flood. */
export const MAX_RESPONSE_BYTES = 64 * 1024;
/** A job that is not its lane's turn looks again this much later, in case the turn's hand-over was lost. */
export const PARK_MS = 30_000;

const utc = (ms: number) => new Date(ms).toISOString();

/**
 * The webhook-signature header: `v1,<base64>` under every secret that still signs (the current one and,
 * for 24 hours after a rotation, the previous one), space-separated as Standard Webhooks says.
 */
export function signatureHeader(w: Pick<WebhookRecord, 'secrets'>, d: DeliveryRecord, nowMs: number): string {
  return w.secrets
    .filter((s) => s.expires_ms === undefined || s.expires_ms > nowMs)
    .map((s) => new Webhook(s.secret).sign(d.id, new Date(nowMs), d.body))
    .join(' ');
}

interface Tried {
  attempt: Attempt;
  outcome: 'delivered' | 'gone' | 'retry';
}

async function attempt(w: WebhookRecord, d: DeliveryRecord, o: DeliverOptions): Promise<Tried> {
  const started = Date.now();
  const at_utc = utc(started);
  try {
    const res = await guardedFetch(w.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'cal-events-webhooks/1',
        'webhook-id': d.id,
        'webhook-timestamp': String(Math.floor(started / 1000)),
        'webhook-signature': signatureHeader(w, d, started),
      },
      body: d.body,
      timeoutMs: config.webhookTimeoutMs,
      maxBytes: MAX_RESPONSE_BYTES,
      policy: { local: config.outboundLocal },
      resolve: o.resolve,
    });
    const outcome = outcomeOf(res.status);
    const latency_ms = Date.now() - started;
    return {
      outcome,
      attempt: {
        at_utc,
        status: res.status,
        latency_ms,
        ...(outcome === 'delivered' ? {} : { error: `the receiver answered ${res.status}` }),
      },
    };
  } catch (e) {
    const why =
      e instanceof OutboundRefused
        ? `refused: ${e.message}`
        : e instanceof OutboundFailed
          ? `${e.reason}: ${e.message}`
          : `error: ${(e as Error).message}`;
    return { outcome: 'retry', attempt: { at_utc, latency_ms: Date.now() - started, error: why } };
  }
}

/** Ends a delivery without an attempt (its subscription is gone or off) and hands its lane on. */
async function drop(d: DeliveryRecord, error: string, now: number): Promise<void> {
  const next = d.lane ? (await laneHead(d.webhook, d.lane)).filter((id) => id !== d.id)[0] : undefined;
  await settleDelivery(
    d,
    { status: 'failed', attempts: d.attempts, attempt_count: d.attempt_count, error },
    next ? [{ webhook: d.webhook, delivery: next, due_ms: now }] : [],
  );
  await handOn(d);
}

async function disable(w: WebhookRecord, reason: string): Promise<void> {
  await updateWebhook(w.id, { active: false, disabled_reason: reason });
}

/**
 * Hands the lane on after a delivery ended: the lane's head now gets a job due at once. Read after the
 * end was written, so a delivery made meanwhile is either seen here or finds itself first when its own
 * job runs; a hand-over lost in a crash is made up by the waiting job's next look (PARK_MS).
 */
async function handOn(d: DeliveryRecord): Promise<void> {
  if (!d.lane) return;
  const [head] = await laneHead(d.webhook, d.lane, 1);
  if (head) await putJob({ webhook: d.webhook, delivery: head, due_ms: Date.now() });
}

/**
 * When a delivery that is not its lane's turn looks again: when the turn's holder is due to try or its
 * attempt's lease runs out (a hand-over usually comes sooner), never more than PARK_MS away.
 */
async function lookAgainAt(d: DeliveryRecord, holder: string | undefined, now: number): Promise<number> {
  const h = holder ? await getDelivery(d.webhook, holder) : undefined;
  const busyUntil = Math.max(h?.next_attempt_ms ?? 0, h?.lease_until_ms ?? 0);
  return Math.min(Math.max(busyUntil + 1000, now + 1000), now + PARK_MS);
}

/** A success is written on the subscription when it ends a failing streak or the last one is a minute old. */
const SUCCESS_NOTE_MS = 60_000;

/** Runs one job. Safe to run twice, or at once on two runners: a delivery is attempted once per turn. */
export async function runJob(job: JobRef, o: DeliverOptions = {}): Promise<void> {
  const d = await getDelivery(job.webhook, job.delivery);
  const now = Date.now();
  // Over already, or this is an old job of a delivery whose next try is later (that try has its own job).
  if (!d || d.status !== 'pending' || (d.next_attempt_ms ?? 0) > now + 1000) return;
  const w = await getWebhook(d.webhook);
  if (!w) return drop(d, 'the subscription was deleted', now);
  if (!w.active)
    return drop(d, `the subscription is disabled${w.disabled_reason ? `: ${w.disabled_reason}` : ''}`, now);

  let next: string | undefined;
  if (d.lane) {
    const head = await laneHead(d.webhook, d.lane);
    if (head[0] !== d.id) {
      const at = await lookAgainAt(d, head[0], now);
      return putJob({ webhook: d.webhook, delivery: d.id, due_ms: at });
    }
    next = head[1];
  }
  const leaseMs = config.webhookTimeoutMs + 20_000;
  if (!(await claimDelivery(d, now, leaseMs))) {
    // Another runner holds it: look again when its lease runs out, in case that runner died.
    if (d.lease_until_ms && d.lease_until_ms > now)
      await putJob({ webhook: d.webhook, delivery: d.id, due_ms: d.lease_until_ms + 1000 });
    return;
  }

  const tried = await attempt(w, d, o);
  const done = Date.now();
  const attempts = [...d.attempts, tried.attempt];
  const attempt_count = d.attempt_count + 1;

  /** Ends the delivery; the next of its lane (known, or read again now) gets its turn at once. */
  const end = async (status: 'delivered' | 'failed', error?: string) => {
    const handOver = next ? [{ webhook: d.webhook, delivery: next, due_ms: done }] : [];
    await settleDelivery(d, { status, attempts, attempt_count, error }, handOver);
    if (!next) await handOn(d);
  };

  if (tried.outcome === 'delivered') {
    await end('delivered');
    const last = w.last_success_utc ? Date.parse(w.last_success_utc) : 0;
    if (w.failing_since_ms !== undefined || done - last > SUCCESS_NOTE_MS)
      await updateWebhook(w.id, { last_success_utc: utc(done) }, ['failing_since_ms']);
    return;
  }
  if (tried.outcome === 'gone') {
    const reason = 'the receiver answered 410 Gone';
    await disable(w, reason);
    return end('failed', reason);
  }
  const failingSince = w.failing_since_ms ?? done;
  if (w.failing_since_ms === undefined)
    await updateWebhook(w.id, { failing_since_ms: done }, [], {
      condition: 'attribute_not_exists(failing_since_ms)',
      values: {},
    });
  if (done - failingSince >= DISABLE_AFTER_MS) {
    const reason = 'no delivery succeeded for 5 days';
    await disable(w, reason);
    return end('failed', reason);
  }
  const delay = retryDelayMs(attempt_count, config.webhookRetrySchedule ?? DEFAULT_RETRY_SCHEDULE, o.random);
  if (delay === undefined)
    return end('failed', `gave up after ${attempt_count} attempts (${tried.attempt.error})`);
  const due = done + delay;
  await settleDelivery(d, { status: 'pending', attempts, attempt_count, next_attempt_ms: due }, [
    { webhook: d.webhook, delivery: d.id, due_ms: due },
  ]);
}
