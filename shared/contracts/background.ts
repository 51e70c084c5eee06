import { FUNCTION_MEMORY_MB } from './function-limits';

/**
 * The service's background parts, declared once beside the API's contracts: the functions no route
 * reaches. infra/ builds them from this list (infra/jobs.ts: a function and a schedule each;
 * infra/webhook-engine.ts: the stream's dispatcher and the queue's deliverer), and the local stack
 * runs the scheduled ones from it (local/jobs.ts): the same handler, under the same time, on the
 * deployed schedule sped up by LOCAL_TIME_FACTOR (docs/operations.md, "Background parts").
 */

/**
 * What the jobs' writes do to the table (series occurrences, imported events, venues and categories):
 * read items and lists (GetItem, BatchGetItem, Query), write in transactions, which IAM authorizes item
 * by item (PutItem, UpdateItem, DeleteItem, ConditionCheckItem), and draw IDs (UpdateItem). No Scan, no
 * BatchWriteItem, no stream: less than the API's writing functions get (grantReadWriteData).
 */
export const JOB_TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:ConditionCheckItem',
] as const;

/**
 * What the webhook engine's functions do to the table (shared/repositories/webhook-deliveries.ts and
 * the reads of records for payloads): read items and lists, write deliveries, lane markers and jobs (in
 * transactions, which IAM authorizes item by item), delete jobs and markers. No Scan, no batch writes.
 */
export const WEBHOOK_ENGINE_TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
] as const;

/** What starts a part: a schedule, the table's stream, or the delivery queue. */
export type Trigger =
  | {
      kind: 'schedule';
      /** Minutes between the deployed runs (EventBridge Scheduler's `rate(...)`). */
      rateMinutes: number;
      /** The schedule's construct ID (kept as first deployed: a new one would replace the schedule). */
      scheduleId: string;
      /** The schedule's retries of a refused invocation; Scheduler's default when absent. */
      retryAttempts?: number;
      /** Locally, also a run when the stack starts (for what came due while it was stopped). */
      localAtStart?: boolean;
    }
  | { kind: 'stream'; batchSize: number }
  | { kind: 'queue'; batchSize: number };

export interface BackgroundPart {
  /** The function's name (`<stack name>-<name>`) and the key infra and the tests find it by. */
  name: string;
  /** Module path relative to the root, without extension; it exports `handler`. */
  handler: string;
  description: string;
  trigger: Trigger;
  timeoutSeconds: number;
  memoryMb: number;
  /** The table actions its role gets on the table (and Query on its indexes); `queue`: it sends jobs. */
  grants: { table: readonly string[]; sendsToDeliveryQueue?: boolean; sendsMail?: boolean };
}

export type ScheduledPart = BackgroundPart & { trigger: Extract<Trigger, { kind: 'schedule' }> };

const MINUTE = 60;

export const BACKGROUND: readonly BackgroundPart[] = [
  {
    name: 'extendSeries',
    handler: 'functions/jobs/extend-series',
    description: 'Writes open-ended recurring series up to the horizon (docs/recurrence.md)',
    // Daily; also at the local stack's start, which finishes any series write a killed stack left.
    trigger: { kind: 'schedule', rateMinutes: 24 * 60, scheduleId: 'ExtendSeriesDaily', localAtStart: true },
    // Lambda's most: the job walks every series, and what one run leaves (a timeout fails the run,
    // which the alarm shows) the next day's finishes, as every series write can be repeated.
    timeoutSeconds: 15 * MINUTE,
    memoryMb: FUNCTION_MEMORY_MB,
    grants: { table: JOB_TABLE_ACTIONS },
  },
  {
    name: 'resyncImports',
    handler: 'functions/jobs/resync-imports',
    description: 'Fetches and syncs again the feed imports whose re-sync is due (docs/import-export.md)',
    // `resync_minutes` is 5 at least.
    trigger: { kind: 'schedule', rateMinutes: 1, scheduleId: 'ResyncImportsEveryMinute' },
    // As long as a claimed import stays its run's (RESYNC_LEASE_MS, shared/services/imports/imports.ts): a feed
    // of 10 MB is fetched in 30 s at most, its writes take the rest.
    timeoutSeconds: 15 * MINUTE,
    memoryMb: FUNCTION_MEMORY_MB,
    grants: { table: JOB_TABLE_ACTIONS },
  },
  {
    name: 'finishSeriesWrites',
    handler: 'functions/jobs/finish-series-writes',
    description:
      'Finishes the recurring series writes that answered with part of their journal left (docs/recurrence.md)',
    trigger: { kind: 'schedule', rateMinutes: 1, scheduleId: 'FinishSeriesWritesEveryMinute' },
    // As long as its claim on a series' journal holds (FINISHER_LEASE_MS, shared/services/series/finisher.ts).
    timeoutSeconds: 5 * MINUTE,
    memoryMb: FUNCTION_MEMORY_MB,
    grants: { table: JOB_TABLE_ACTIONS },
  },
  {
    name: 'publishScheduled',
    handler: 'functions/jobs/publish-scheduled',
    description: 'Publishes the scheduled (future) posts whose date has come (docs/api-guide.md)',
    // Not retried by its schedule: the next minute's run is the retry.
    trigger: {
      kind: 'schedule',
      rateMinutes: 1,
      scheduleId: 'PublishScheduledEveryMinute',
      retryAttempts: 0,
      localAtStart: true,
    },
    // A minute's due posts, one write each; what is left the next run publishes.
    timeoutSeconds: MINUTE,
    memoryMb: FUNCTION_MEMORY_MB,
    grants: { table: JOB_TABLE_ACTIONS },
  },
  {
    name: 'sendMail',
    handler: 'functions/jobs/send-mail',
    description: "Sends the outbox's due attendee e-mails through SES (docs/tickets.md)",
    // Not retried by its schedule: the next minute's run is the retry (a mail stays due until sent).
    trigger: { kind: 'schedule', rateMinutes: 1, scheduleId: 'SendMailEveryMinute', retryAttempts: 0 },
    // Fifty mails, one SES call each, well within it; what is left the next run sends.
    timeoutSeconds: MINUTE,
    memoryMb: FUNCTION_MEMORY_MB,
    // SES as the sender identity (`mailFrom`, infra/jobs.ts).
    grants: { table: JOB_TABLE_ACTIONS, sendsMail: true },
  },
  {
    name: 'webhookDispatch',
    handler: 'functions/webhook-engine/dispatch',
    description: 'Makes the deliveries of new changes and moves new delivery jobs to the queue',
    // Small: each change is delivered to every subscriber, so a batch's cost grows with both.
    trigger: { kind: 'stream', batchSize: 10 },
    // A stream batch: the payloads' reads and the deliveries of up to its batch of changes.
    timeoutSeconds: MINUTE,
    memoryMb: FUNCTION_MEMORY_MB,
    grants: { table: WEBHOOK_ENGINE_TABLE_ACTIONS, sendsToDeliveryQueue: true },
  },
  {
    name: 'webhookDeliver',
    handler: 'functions/webhook-engine/deliver',
    description: 'Runs the delivery jobs the queue hands over',
    trigger: { kind: 'queue', batchSize: 10 },
    // Attempts of a batch go at once, each at most 10 s, plus its table writes.
    timeoutSeconds: MINUTE,
    memoryMb: FUNCTION_MEMORY_MB,
    // A job due past SQS's longest delay goes back to the queue.
    grants: { table: WEBHOOK_ENGINE_TABLE_ACTIONS, sendsToDeliveryQueue: true },
  },
];

/** A part by name; throws for a name the list does not hold. */
export function backgroundPart(name: string): BackgroundPart {
  const part = BACKGROUND.find((p) => p.name === name);
  if (!part) throw new Error(`No background part is named ${name} (shared/contracts/background.ts)`);
  return part;
}

/** The parts run on a schedule (the jobs), in the list's order. */
export const scheduledParts = (parts: readonly BackgroundPart[] = BACKGROUND): ScheduledPart[] =>
  parts.filter((p): p is ScheduledPart => p.trigger.kind === 'schedule');

/**
 * How much sooner the local stack runs a schedule than deployed: a deployed minute is a local second,
 * so a developer sees a scheduled post published, a series write finished or a due feed re-synced within
 * a second or two, and the daily extend job runs every 24 minutes. Each run is the handler's, under its
 * deployed time (local/jobs.ts).
 */
export const LOCAL_TIME_FACTOR = 60;

/** A scheduled part's period in the local stack, in milliseconds. */
export const localPeriodMs = (part: ScheduledPart, factor = LOCAL_TIME_FACTOR): number =>
  (part.trigger.rateMinutes * 60_000) / factor;
