import { type CfnResource, Duration, NestedStack, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Schedule, ScheduleExpression } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import type { Construct } from 'constructs';
import { FunctionAlarms } from './alarms';
import { ApiFunction } from './function-defaults';

/** How often the extend job of recurring events runs (docs/recurrence.md). */
export const EXTEND_SERIES_RATE = Duration.days(1);
/**
 * Its longest run, Lambda's most: the job walks every series, and what one run leaves (a timeout
 * fails the run, which the alarm shows) the next day's finishes, as every series write can be repeated.
 */
export const EXTEND_SERIES_TIMEOUT = Duration.minutes(15);

/**
 * What a series write does to the table, and so the extend job: read items and the series list
 * (GetItem, BatchGetItem, Query), write occurrences in transactions, which IAM authorizes item by item
 * (PutItem, UpdateItem, DeleteItem, ConditionCheckItem), and draw IDs (UpdateItem). No Scan, no
 * BatchWriteItem, no stream: less than the API's writing functions get (grantReadWriteData).
 */
export const EXTEND_SERIES_TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:ConditionCheckItem',
];

export interface ScheduledJobsProps {
  repoRoot: string;
  table: ITable;
  /** The functions' settings (SERIES_HORIZON_MONTHS among them: the API's series writes read it too). */
  environment: Record<string, string>;
  functionName: (job: string) => string;
  logRetention: RetentionDays;
  retainLogs: boolean;
}

/**
 * The service's scheduled jobs, in a nested stack of their own: the daily extend job of recurring
 * events (functions/jobs/extend-series.ts), its EventBridge Scheduler schedule and that schedule's role
 * (allowed to invoke this function only), and the function's alarms.
 */
export class ScheduledJobs extends NestedStack {
  /** The jobs' functions, by name (`extendSeries`). */
  readonly functions = new Map<string, LambdaFunction>();
  readonly extendSeriesSchedule: Schedule;

  constructor(scope: Construct, id: string, props: ScheduledJobsProps) {
    super(scope, id, { description: 'Event calendar API: scheduled jobs' });
    const job = new ApiFunction(this, 'ExtendSeries', {
      repoRoot: props.repoRoot,
      handler: 'functions/jobs/extend-series',
      functionName: props.functionName('extendSeries'),
      environment: props.environment,
      logRetention: props.logRetention,
      retainLogs: props.retainLogs,
      timeout: EXTEND_SERIES_TIMEOUT,
    });
    const fn = job.fn;
    fn.addToRolePolicy(
      new PolicyStatement({ actions: EXTEND_SERIES_TABLE_ACTIONS, resources: [props.table.tableArn] }),
    );
    // The series list and the lookups a write makes run on the table's indexes: queries only.
    fn.addToRolePolicy(
      new PolicyStatement({ actions: ['dynamodb:Query'], resources: [`${props.table.tableArn}/index/*`] }),
    );
    this.functions.set('extendSeries', fn);

    // Scheduler invokes the function asynchronously, so a failed run is retried by Lambda (twice) and
    // counted in its Errors; the schedule's own retries cover only a refused invocation.
    this.extendSeriesSchedule = new Schedule(this, 'ExtendSeriesDaily', {
      schedule: ScheduleExpression.rate(EXTEND_SERIES_RATE),
      target: new LambdaInvoke(fn),
      description: 'Writes open-ended recurring series up to the horizon (docs/recurrence.md)',
    });
    new FunctionAlarms(this, 'Alarms', { functions: this.functions });

    const tableStack = Stack.of(props.table);
    const tableId = tableStack.getLogicalId(props.table.node.defaultChild as CfnResource);
    // CDK's grantInvoke names the function and its versions (`<arn>:*`): this function, no other.
    Validations.of(this).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${this.getLogicalId(fn.node.defaultChild as CfnResource)}.Arn>:*]`,
      reason: "The schedule's role invokes the extend job's function and its versions only.",
    });
    Validations.of(job).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${tableId}.Arn>/index/*]`,
      reason: 'Queries only, on the global secondary indexes the series list and the writes read.',
    });
  }
}
