import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ChangeResource } from '../domain/changes';
import { patterns } from '../db/access-patterns';
import { ddb, tableName } from '../db/client';
import { unlessConditionFails } from '../db/conditional';
import { keys } from '../db/keys';
import { collect, queryIndex } from '../db/query';
import type { WriteItem } from '../db/transact';

/**
 * Deliveries, their per-record lanes and the job queue (docs/webhooks.md, "Engine").
 *
 * - A delivery is one message to one subscription: its body is fixed when it is made (retries send the
 *   same bytes under the same webhook-id), its attempts are kept on it.
 * - A lane marker exists while a delivery of one record to one subscription is pending, keyed by the
 *   change's position in the table's stream: only the lowest marker of a lane is delivered, so a later
 *   change of a record never overtakes an earlier one.
 * - A job says "look at this delivery at this time". Locally the jobs are the queue (the in-process
 *   runner reads the due ones); deployed, the dispatcher moves each new job to SQS. A job is written in
 *   the same transaction as what makes it necessary, so a crash never leaves a delivery without one.
 */

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface Attempt {
  at_utc: string;
  status?: number;
  latency_ms: number;
  error?: string;
}

export interface DeliveryRecord {
  webhook: number;
  id: string;
  /** The event type (`event.updated`, `webhook.ping`); `type` is the item's kind, as on every item. */
  event_type: string;
  resource?: ChangeResource;
  record_id?: number;
  /** The JSON body, exactly as every attempt sends it. */
  body: string;
  status: DeliveryStatus;
  created_utc: string;
  attempts: Attempt[];
  attempt_count: number;
  next_attempt_ms?: number;
  error?: string;
  /** `<resource>#<record id>`: changes of one record to one subscription go in order. */
  lane?: string;
  /** The change's stream sequence number, zero-padded so that text order is stream order. */
  order?: string;
  /** An attempt in flight holds the delivery until then (epoch ms). */
  lease_until_ms?: number;
}

/** Attempts kept on a delivery (the newest); attempt_count counts them all. */
export const KEPT_ATTEMPTS = 20;

const strip = ({ pk: _pk, sk: _sk, type: _type, ...rest }: Record<string, unknown>) =>
  rest as unknown as DeliveryRecord;

export interface JobRef {
  webhook: number;
  delivery: string;
  due_ms: number;
}

const jobPut = (j: JobRef): WriteItem => ({
  Put: {
    TableName: tableName(),
    Item: { ...keys.job(j.due_ms, j.webhook, j.delivery), type: 'webhook-job', ...j },
  },
});

const laneKey = (d: Pick<DeliveryRecord, 'webhook' | 'lane' | 'order'>) =>
  keys.laneMarker(d.webhook, d.lane!, d.order!);

/**
 * Makes a delivery with its lane marker and its first job, all or nothing; false when it exists
 * already (a stream batch processed again after a crash makes nothing twice).
 */
export async function createDelivery(d: DeliveryRecord, dueMs: number): Promise<boolean> {
  const items: WriteItem[] = [
    {
      Put: {
        TableName: tableName(),
        Item: { ...keys.delivery(d.webhook, d.id), type: 'webhook-delivery', ...d },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    jobPut({ webhook: d.webhook, delivery: d.id, due_ms: dueMs }),
  ];
  if (d.lane) items.push({ Put: { TableName: tableName(), Item: { ...laneKey(d), delivery: d.id } } });
  try {
    await ddb.send(new TransactWriteCommand({ TransactItems: items }));
    return true;
  } catch (e) {
    const reasons = e instanceof TransactionCanceledException ? (e.CancellationReasons ?? []) : [];
    if (reasons[0]?.Code === 'ConditionalCheckFailed') return false;
    throw e;
  }
}

export async function getDelivery(webhook: number, id: string): Promise<DeliveryRecord | undefined> {
  const out = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: keys.delivery(webhook, id), ConsistentRead: true }),
  );
  return out.Item && strip(out.Item);
}

/** A page of a subscription's deliveries, newest first, after the sort key `after` (exclusive). */
export async function deliveriesOf(
  webhook: number,
  limit: number,
  after?: string,
): Promise<{ deliveries: DeliveryRecord[]; last?: string }> {
  // One more than the page: the cursor is given only when the list goes on.
  const items = await collect(
    queryIndex({ ...patterns.deliveriesNewestFirst.query(webhook, after), pageSize: limit + 1 }),
    limit + 1,
  );
  const deliveries = items.slice(0, limit).map(strip);
  return { deliveries, last: items.length > limit ? String(items[limit - 1]!.sk) : undefined };
}

/** The first pending deliveries of a lane, in stream order (their IDs). */
export async function laneHead(webhook: number, lane: string, limit = 2): Promise<string[]> {
  const items = await collect(
    queryIndex({ ...patterns.laneHead.query(webhook, lane), pageSize: limit }),
    limit,
  );
  return items.map((i) => String(i.delivery));
}

/**
 * Takes a pending delivery for one attempt, unless another runner holds it (a lease that has not run
 * out) or it is no longer pending: the same job run twice sends once.
 */
export async function claimDelivery(
  d: Pick<DeliveryRecord, 'webhook' | 'id' | 'attempt_count'>,
  nowMs: number,
  leaseMs: number,
): Promise<boolean> {
  const taken = await unlessConditionFails(
    ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.delivery(d.webhook, d.id),
        UpdateExpression: 'SET lease_until_ms = :until',
        ConditionExpression:
          '#s = :pending AND attempt_count = :n AND (attribute_not_exists(lease_until_ms) OR lease_until_ms < :now)',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: {
          ':until': nowMs + leaseMs,
          ':pending': 'pending',
          ':n': d.attempt_count,
          ':now': nowMs,
        },
      }),
    ),
  );
  return taken !== undefined;
}

/**
 * Records the end of an attempt (or of a delivery without one) with its new state, and the jobs it
 * calls for, in one transaction: a delivery that is over leaves its lane and hands the lane to the
 * next one's job at once.
 */
export async function settleDelivery(
  d: DeliveryRecord,
  next: Pick<DeliveryRecord, 'status' | 'attempts' | 'attempt_count' | 'next_attempt_ms' | 'error'>,
  jobs: JobRef[],
): Promise<void> {
  const over = next.status !== 'pending';
  const items: WriteItem[] = [
    {
      Update: {
        TableName: tableName(),
        Key: keys.delivery(d.webhook, d.id),
        UpdateExpression:
          'SET #s = :s, attempts = :a, attempt_count = :n' +
          (next.next_attempt_ms !== undefined ? ', next_attempt_ms = :next' : '') +
          (next.error !== undefined ? ', #e = :e' : '') +
          ' REMOVE lease_until_ms' +
          (next.next_attempt_ms === undefined ? ', next_attempt_ms' : '') +
          (next.error === undefined ? ', #e' : ''),
        ExpressionAttributeNames: { '#s': 'status', '#e': 'error' },
        ExpressionAttributeValues: {
          ':s': next.status,
          ':a': next.attempts.slice(-KEPT_ATTEMPTS),
          ':n': next.attempt_count,
          ...(next.next_attempt_ms !== undefined ? { ':next': next.next_attempt_ms } : {}),
          ...(next.error !== undefined ? { ':e': next.error } : {}),
        },
      },
    },
    ...jobs.map(jobPut),
  ];
  if (over && d.lane) items.push({ Delete: { TableName: tableName(), Key: laneKey(d) } });
  await ddb.send(new TransactWriteCommand({ TransactItems: items }));
}

/** Puts a failed delivery back in line as pending, due now (a manual retry); false when it is not failed. */
export async function reopenDelivery(d: DeliveryRecord, nowMs: number): Promise<boolean> {
  try {
    await ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: keys.delivery(d.webhook, d.id),
              // Out of its lane: a retry by hand is sent at once, whatever else of its record is pending.
              UpdateExpression:
                'SET #s = :pending, next_attempt_ms = :now REMOVE #e, lease_until_ms, lane, #o',
              ConditionExpression: '#s = :failed',
              ExpressionAttributeNames: { '#s': 'status', '#e': 'error', '#o': 'order' },
              ExpressionAttributeValues: { ':pending': 'pending', ':failed': 'failed', ':now': nowMs },
            },
          },
          jobPut({ webhook: d.webhook, delivery: d.id, due_ms: nowMs }),
        ],
      }),
    );
    return true;
  } catch (e) {
    if (e instanceof TransactionCanceledException) return false;
    throw e;
  }
}

export async function putJob(j: JobRef): Promise<void> {
  await ddb.send(new TransactWriteCommand({ TransactItems: [jobPut(j)] }));
}

/** Jobs due at `nowMs` or before, earliest first. */
export async function dueJobs(nowMs: number, limit: number): Promise<JobRef[]> {
  // Every job key of that millisecond sorts below `~`.
  const dueBy = `${new Date(nowMs).toISOString()}~`;
  const items = await collect(queryIndex({ ...patterns.dueJobs.query(dueBy), pageSize: limit }), limit);
  return items.map((i) => ({
    webhook: Number(i.webhook),
    delivery: String(i.delivery),
    due_ms: Number(i.due_ms),
  }));
}

export async function deleteJob(j: JobRef): Promise<void> {
  await ddb.send(
    new DeleteCommand({ TableName: tableName(), Key: keys.job(j.due_ms, j.webhook, j.delivery) }),
  );
}
