import { type CfnResource, Duration, NestedStack, Stack, Validations } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  type IMetric,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { EventBus } from 'aws-cdk-lib/aws-events';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import {
  FilterCriteria,
  FilterRule,
  type Function as LambdaFunction,
  StartingPosition,
} from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { CfnPipe } from 'aws-cdk-lib/aws-pipes';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { WEBHOOK_QUEUE_URL_ENV } from '../shared/config';
import { keys } from '../shared/db/keys';
import { FunctionAlarms } from './alarms';
import { type BackgroundPart, backgroundPart } from '../shared/contracts/background';
import { ApiFunction, constructIdOf, type FunctionGroupProps } from './function-defaults';

/** The engine's table grants, declared with its functions (shared/contracts/background.ts). */
export { WEBHOOK_ENGINE_TABLE_ACTIONS } from '../shared/contracts/background';

const dispatchPart = backgroundPart('webhookDispatch');
const deliverPart = backgroundPart('webhookDeliver');
const batchOf = (part: BackgroundPart) => (part.trigger.kind === 'schedule' ? 1 : part.trigger.batchSize);

/** A delivery's run: attempts of a batch go at once, each at most 10 s, plus its table writes. */
export const DELIVERER_TIMEOUT = Duration.seconds(deliverPart.timeoutSeconds);
/** A stream batch: the payloads' reads and the deliveries of up to DISPATCH_BATCH changes. */
export const DISPATCHER_TIMEOUT = Duration.seconds(dispatchPart.timeoutSeconds);
/**
 * Small: each change is delivered to every subscriber, so a batch's cost grows with both. A batch
 * that would outlive the function stops at its remaining time and names its next record
 * (functions/webhook-engine/dispatch.ts), which Lambda hands over again from there.
 */
export const DISPATCH_BATCH = batchOf(dispatchPart);
/**
 * Tries of a batch before its records are given up to the dispatch-failures queue. Each try that
 * stopped for time did at least one record, so a batch stopped for time alone never runs out of them;
 * one that keeps failing (a record the code cannot dispatch, a refusing queue) is set aside in
 * minutes, bisected down to the record at fault, instead of holding its shard for DISPATCH_MAX_RECORD_AGE.
 */
export const DISPATCH_RETRY_ATTEMPTS = 2 * DISPATCH_BATCH;
export const DELIVER_BATCH = batchOf(deliverPart);
/** Runs of one job that threw (the table throttled, a bug) before its message is set aside. */
export const DELIVERY_MAX_RECEIVES = 5;
/** A job waits at most 15 minutes in the queue (SQS's longest delay), then is sent again. */
export const QUEUE_AGE_ALARM = Duration.minutes(20);
/** The dispatcher this far behind the table's stream means deliveries are late for everyone. */
export const ITERATOR_AGE_ALARM = Duration.minutes(5);
/**
 * A stream batch that keeps failing is given up after this long and its place recorded in the
 * dispatch-failures queue, well before the stream drops it (24 h): an operator can still look.
 */
export const DISPATCH_MAX_RECORD_AGE = Duration.hours(12);
/**
 * Tries of a batch the bus refuses before the pipe gives it up to the bus-failures queue: a refusal
 * (throttled, an outage) holds the shard's later changes back, so it is set aside within minutes, and
 * a batch put in part is split down to the events refused (AUTOMATIC_BISECT).
 */
export const PIPE_RETRY_ATTEMPTS = 10;

/** What the change bus's events say they are: rules match on these (docs/webhooks.md). */
export const CHANGE_EVENT = { source: 'cal.events', detailType: 'Calendar change' } as const;

/** The change-log items the bus carries and the dispatcher reads (new ones only). */
const CHANGE_FILTER = {
  eventName: ['INSERT'],
  dynamodb: { Keys: { pk: { S: [keys.changePartition] } } },
};

/** The event's `detail`: the change-log entry's fields, and its whole image in DynamoDB's JSON. */
export const CHANGE_DETAIL_TEMPLATE = `{
  "position": "<$.dynamodb.NewImage.sk.S>",
  "resource": "<$.dynamodb.NewImage.resource.S>",
  "id": "<$.dynamodb.NewImage.id.N>",
  "modified_utc": "<$.dynamodb.NewImage.modified_utc.S>",
  "image": <$.dynamodb.NewImage>
}`;

export interface WebhookEngineProps extends FunctionGroupProps {
  /** The custom bus's name (`<stack name>-changes`). */
  busName: string;
  /** Most delivery batches at once (context `webhookConcurrency`, infra/settings.ts). */
  deliveryConcurrency: number;
}

/**
 * The deployed webhook engine (docs/webhooks.md, "Engine"), in a nested stack of its own:
 * - the dispatcher (functions/webhook-engine/dispatch.ts) on the table's stream, filtered to new
 *   change-log items and new jobs: it makes the deliveries of changes and moves each job to SQS;
 * - the delivery queue, with a delay per message, and the deliverer (functions/webhook-engine/deliver.ts)
 *   on it, reporting failures per message; a dead-letter queue after DELIVERY_MAX_RECEIVES runs;
 * - the change bus: an EventBridge Pipe from the stream, filtered to change-log items, onto a custom
 *   bus (`source` cal.events, `detail-type` Calendar change), for rules instead of webhooks;
 * - alarms: each function's errors and throttles, the queue's oldest message, the dead letters, the
 *   dispatcher's lag behind the stream, the pipe's failed executions and the stream batches either gave up.
 */
export class WebhookEngine extends NestedStack {
  /** The engine's functions, by name (`webhookDispatch`, `webhookDeliver`). */
  readonly functions = new Map<string, LambdaFunction>();
  readonly queue: Queue;
  readonly deadLetters: Queue;
  readonly dispatchFailures: Queue;
  /** Where the pipe records the stream batches it could not put on the bus. */
  readonly busFailures: Queue;
  readonly bus: EventBus;
  readonly pipe: CfnPipe;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: WebhookEngineProps) {
    super(scope, id, { description: 'Event calendar API: the webhook engine and the change bus' });
    const streamArn = props.table.tableStreamArn;
    if (!streamArn) throw new Error('The webhook engine needs the table stream (infra/table.ts).');

    const sqsDefaults = { enforceSSL: true, encryption: QueueEncryption.SQS_MANAGED };
    this.deadLetters = new Queue(this, 'DeadLetters', { ...sqsDefaults, retentionPeriod: Duration.days(14) });
    this.queue = new Queue(this, 'Deliveries', {
      ...sqsDefaults,
      // Six times the deliverer's timeout, as Lambda advises: a batch still running is not handed out again.
      visibilityTimeout: Duration.seconds(DELIVERER_TIMEOUT.toSeconds() * 6),
      deadLetterQueue: { queue: this.deadLetters, maxReceiveCount: DELIVERY_MAX_RECEIVES },
    });
    this.dispatchFailures = new Queue(this, 'DispatchFailures', {
      ...sqsDefaults,
      retentionPeriod: Duration.days(14),
    });
    this.busFailures = new Queue(this, 'BusFailures', { ...sqsDefaults, retentionPeriod: Duration.days(14) });
    for (const [queue, whose] of [
      [this.dispatchFailures, "The dispatcher's"],
      [this.busFailures, "The change bus pipe's"],
    ] as const)
      Validations.of(queue).acknowledge({
        id: 'AwsSolutions-SQS3',
        reason:
          `${whose} on-failure destination: it holds the places of stream batches given up, for an ` +
          'operator to read; nothing consumes it, so it has no dead-letter queue of its own.',
      });

    const tableId = Stack.of(props.table).getLogicalId(props.table.node.defaultChild as CfnResource);
    const fn = (part: BackgroundPart) => {
      const { name } = part;
      const construct = new ApiFunction(this, constructIdOf(name), {
        repoRoot: props.repoRoot,
        handler: part.handler,
        functionName: props.functionName(name),
        environment: { ...props.environment, [WEBHOOK_QUEUE_URL_ENV]: this.queue.queueUrl },
        logRetention: props.logRetention,
        retainLogs: props.retainLogs,
        timeout: Duration.seconds(part.timeoutSeconds),
        memoryMb: part.memoryMb,
      });
      const f = construct.fn;
      Validations.of(construct).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${tableId}.Arn>/index/*]`,
        reason:
          "Queries only, on the table's own global secondary indexes, which reading a record for a payload uses.",
      });
      f.addToRolePolicy(
        new PolicyStatement({ actions: [...part.grants.table], resources: [props.table.tableArn] }),
      );
      // Records are read for payloads through the indexes too: queries only.
      f.addToRolePolicy(
        new PolicyStatement({ actions: ['dynamodb:Query'], resources: [`${props.table.tableArn}/index/*`] }),
      );
      // Both hand jobs to the queue: the dispatcher every new one, the deliverer one due past 15 minutes.
      if (part.grants.sendsToDeliveryQueue)
        f.addToRolePolicy(
          new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.queue.queueArn] }),
        );
      this.functions.set(name, f);
      return f;
    };

    const dispatcher = fn(dispatchPart);
    dispatcher.addEventSource(
      new DynamoEventSource(props.table, {
        // From the oldest record: changes written between the stream's creation and the mapping's count.
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: DISPATCH_BATCH,
        // One batch a shard at a time: the order of a record's changes is the stream's.
        parallelizationFactor: 1,
        reportBatchItemFailures: true,
        // A function error (a timeout, a crash) splits the batch in two: the record at fault is isolated.
        bisectBatchOnError: true,
        retryAttempts: DISPATCH_RETRY_ATTEMPTS,
        maxRecordAge: DISPATCH_MAX_RECORD_AGE,
        onFailure: new SqsDlq(this.dispatchFailures),
        filters: [
          FilterCriteria.filter({
            eventName: FilterRule.isEqual('INSERT'),
            dynamodb: { Keys: { pk: { S: FilterRule.isEqual(keys.changePartition) } } },
          }),
          // A job put again under the same key (the same delivery, due at the same time) is a MODIFY.
          FilterCriteria.filter({
            eventName: FilterRule.or('INSERT', 'MODIFY'),
            dynamodb: { Keys: { pk: { S: FilterRule.isEqual(keys.jobPartition) } } },
          }),
        ],
      }),
    );

    const deliverer = fn(deliverPart);
    deliverer.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: DELIVER_BATCH,
        reportBatchItemFailures: true,
        // Receivers are other people's servers, and each batch holds one of the account's executions
        // (a new account may have 10 in all): a burst of changes goes a few batches at a time.
        maxConcurrency: props.deliveryConcurrency,
      }),
    );

    // The pipe is the stream's second reader, after the dispatcher's mapping: DynamoDB advises at most
    // two per shard (more are throttled and all fall behind). A third consumer of changes reads the
    // bus (a rule) or the delivery queue, not the stream; or it replaces one of these two.
    this.bus = new EventBus(this, 'Changes', { eventBusName: props.busName });
    const pipeRole = new Role(this, 'ChangePipeRole', {
      assumedBy: new ServicePrincipal('pipes.amazonaws.com'),
    });
    pipeRole.addToPolicy(
      new PolicyStatement({
        actions: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'],
        resources: [streamArn],
      }),
    );
    pipeRole.addToPolicy(new PolicyStatement({ actions: ['dynamodb:ListStreams'], resources: ['*'] }));
    Validations.of(pipeRole).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'dynamodb:ListStreams names no resource: IAM allows only "*" for it.',
    });
    this.bus.grantPutEventsTo(pipeRole);
    this.busFailures.grantSendMessages(pipeRole);
    this.pipe = new CfnPipe(this, 'ChangePipe', {
      description: 'Every change-log item of the table onto the change bus',
      roleArn: pipeRole.roleArn,
      source: streamArn,
      sourceParameters: {
        dynamoDbStreamParameters: {
          startingPosition: 'TRIM_HORIZON',
          batchSize: 10,
          // As the dispatcher: a batch the bus keeps refusing is given up after its tries (or 12 hours),
          // its place recorded where an operator can find it, before the stream drops it (24 h).
          maximumRetryAttempts: PIPE_RETRY_ATTEMPTS,
          onPartialBatchItemFailure: 'AUTOMATIC_BISECT',
          maximumRecordAgeInSeconds: DISPATCH_MAX_RECORD_AGE.toSeconds(),
          deadLetterConfig: { arn: this.busFailures.queueArn },
        },
        filterCriteria: { filters: [{ pattern: JSON.stringify(CHANGE_FILTER) }] },
      },
      target: this.bus.eventBusArn,
      targetParameters: {
        eventBridgeEventBusParameters: { source: CHANGE_EVENT.source, detailType: CHANGE_EVENT.detailType },
        inputTemplate: CHANGE_DETAIL_TEMPLATE,
      },
    });
    // The role's grants exist before the pipe starts reading.
    this.pipe.node.addDependency(pipeRole);

    this.alarms.push(...new FunctionAlarms(this, 'FunctionAlarms', { functions: this.functions }).alarms);
    const alarm = (name: string, metric: IMetric, threshold: number, description: string) =>
      this.alarms.push(
        new Alarm(this, name, {
          metric,
          threshold,
          evaluationPeriods: 1,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          treatMissingData: TreatMissingData.NOT_BREACHING,
          alarmDescription: description,
        }),
      );
    const period = Duration.minutes(5);
    alarm(
      'QueueAgeAlarm',
      this.queue.metricApproximateAgeOfOldestMessage({ period, statistic: 'Maximum' }),
      QUEUE_AGE_ALARM.toSeconds(),
      'A webhook job has waited in the delivery queue longer than its longest delay: deliveries are stuck',
    );
    alarm(
      'DeadLettersAlarm',
      this.deadLetters.metricApproximateNumberOfMessagesVisible({ period, statistic: 'Maximum' }),
      1,
      'Webhook jobs failed to run (docs/operations.md: read the errors, then redrive the dead-letter queue)',
    );
    alarm(
      'DispatchFailuresAlarm',
      this.dispatchFailures.metricApproximateNumberOfMessagesVisible({ period, statistic: 'Maximum' }),
      1,
      'The webhook dispatcher gave up a batch of the table stream: those changes made no deliveries',
    );
    alarm(
      'BusFailuresAlarm',
      this.busFailures.metricApproximateNumberOfMessagesVisible({ period, statistic: 'Maximum' }),
      1,
      'The change bus pipe gave up a batch of the table stream: those changes are not on the bus',
    );
    alarm(
      'PipeFailuresAlarm',
      new Metric({
        namespace: 'AWS/EventBridge/Pipes',
        metricName: 'ExecutionFailed',
        dimensionsMap: { PipeName: this.pipe.ref },
        period,
        statistic: 'Sum',
      }),
      1,
      'The change bus pipe failed to put changes on the bus: it retries, and later changes wait behind them',
    );
    alarm(
      'DispatcherLagAlarm',
      dispatcher.metric('IteratorAge', { period, statistic: 'Maximum' }),
      ITERATOR_AGE_ALARM.toMilliseconds(),
      'The webhook dispatcher is behind the table stream: deliveries are late',
    );
  }
}
