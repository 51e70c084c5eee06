import { type CfnResource, Duration, NestedStack, Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Schedule, ScheduleExpression } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import type { Construct } from 'constructs';
import { FunctionAlarms } from './alarms';
import { ApiFunction, type FunctionGroupProps } from './function-defaults';

/** How often the extend job of recurring events runs (docs/recurrence.md). */
export const EXTEND_SERIES_RATE = Duration.days(1);
/**
 * Its longest run, Lambda's most: the job walks every series, and what one run leaves (a timeout
 * fails the run, which the alarm shows) the next day's finishes, as every series write can be repeated.
 */
export const EXTEND_SERIES_TIMEOUT = Duration.minutes(15);

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
];

/** The environment carries SERIES_HORIZON_MONTHS: the API's series writes read it too. */
export interface ScheduledJobsProps extends FunctionGroupProps {
  /** The SES identity the mail job sends as (`mailFrom`'s address or domain); every identity when absent. */
  mailIdentityArn?: string;
}

/** How often feed imports are looked at for a due re-sync (`resync_minutes` is 5 at least). */
export const RESYNC_IMPORTS_RATE = Duration.minutes(1);
/**
 * The re-sync job's longest run, as long as a claimed import stays its run's (RESYNC_LEASE_MS in
 * shared/services/imports.ts): a feed of 10 MB is fetched in 30 s at most, its writes take the rest.
 */
export const RESYNC_IMPORTS_TIMEOUT = Duration.minutes(15);

/** How often the finisher of series writes looks for journals left by writes (docs/recurrence.md). */
export const FINISH_SERIES_WRITES_RATE = Duration.minutes(1);
/** Its longest run: as long as its claim on a series' journal holds (FINISHER_LEASE_MS, series-finisher.ts). */
export const FINISH_SERIES_WRITES_TIMEOUT = Duration.minutes(5);

/** How often scheduled (`future`) posts are looked at for a date that came (decisions §9). */
export const PUBLISH_SCHEDULED_RATE = Duration.minutes(1);
/** Its longest run: a minute's due posts, one write each; what is left the next run publishes. */
export const PUBLISH_SCHEDULED_TIMEOUT = Duration.minutes(1);

/** How often the outbox of attendees' e-mails is looked at (docs/tickets.md): a confirmation within a minute. */
export const SEND_MAIL_RATE = Duration.minutes(1);
/** Its longest run: fifty mails, one SES call each, well within it; what is left the next run sends. */
export const SEND_MAIL_TIMEOUT = Duration.minutes(1);

interface JobSpec {
  id: string;
  /** The schedule's construct ID (kept as first deployed: a new one would replace the schedule). */
  scheduleId: string;
  name: string;
  handler: string;
  timeout: Duration;
  rate: Duration;
  description: string;
  /**
   * Retries of a failed run by Lambda (its asynchronous invocation) and by the schedule; their
   * defaults when absent. A job that runs every minute has its retry in the next run.
   */
  retryAttempts?: number;
  /** Whether it sends mail through SES (the sender identity's, from `mailIdentityArn`). */
  sendsMail?: boolean;
}

const JOBS: JobSpec[] = [
  {
    id: 'ExtendSeries',
    scheduleId: 'ExtendSeriesDaily',
    name: 'extendSeries',
    handler: 'functions/jobs/extend-series',
    timeout: EXTEND_SERIES_TIMEOUT,
    rate: EXTEND_SERIES_RATE,
    description: 'Writes open-ended recurring series up to the horizon (docs/recurrence.md)',
  },
  {
    id: 'ResyncImports',
    scheduleId: 'ResyncImportsEveryMinute',
    name: 'resyncImports',
    handler: 'functions/jobs/resync-imports',
    timeout: RESYNC_IMPORTS_TIMEOUT,
    rate: RESYNC_IMPORTS_RATE,
    description: 'Fetches and syncs again the feed imports whose re-sync is due (docs/import-export.md)',
  },
  {
    id: 'FinishSeriesWrites',
    scheduleId: 'FinishSeriesWritesEveryMinute',
    name: 'finishSeriesWrites',
    handler: 'functions/jobs/finish-series-writes',
    timeout: FINISH_SERIES_WRITES_TIMEOUT,
    rate: FINISH_SERIES_WRITES_RATE,
    description:
      'Finishes the recurring series writes that answered with part of their journal left (docs/recurrence.md)',
  },
  {
    id: 'PublishScheduled',
    scheduleId: 'PublishScheduledEveryMinute',
    name: 'publishScheduled',
    handler: 'functions/jobs/publish-scheduled',
    timeout: PUBLISH_SCHEDULED_TIMEOUT,
    rate: PUBLISH_SCHEDULED_RATE,
    description: 'Publishes the scheduled (future) posts whose date has come (docs/api-guide.md)',
    retryAttempts: 0,
  },
  {
    id: 'SendMail',
    scheduleId: 'SendMailEveryMinute',
    name: 'sendMail',
    handler: 'functions/jobs/send-mail',
    timeout: SEND_MAIL_TIMEOUT,
    rate: SEND_MAIL_RATE,
    description: "Sends the outbox's due attendee e-mails through SES (docs/tickets.md)",
    retryAttempts: 0,
    sendsMail: true,
  },
];

/**
 * The service's scheduled jobs, in a nested stack of their own: the daily extend job of recurring
 * events (functions/jobs/extend-series.ts), the finisher of series writes every minute
 * (functions/jobs/finish-series-writes.ts) and the re-sync of feed imports every minute
 * (functions/jobs/resync-imports.ts) and the publication of scheduled posts every minute
 * (functions/jobs/publish-scheduled.ts), each with its EventBridge Scheduler schedule and that schedule's
 * role (allowed to invoke its function only), and the functions' alarms. The jobs write what the API
 * writes, with the same grants (JOB_TABLE_ACTIONS); the re-sync also fetches feeds, guarded as the API's
 * imports are (shared/outbound).
 */
export class ScheduledJobs extends NestedStack {
  /** The jobs' functions, by name (`extendSeries`, `resyncImports`, `finishSeriesWrites`, `publishScheduled`). */
  readonly functions = new Map<string, LambdaFunction>();
  /** Their schedules, by the same names. */
  readonly schedules = new Map<string, Schedule>();

  constructor(scope: Construct, id: string, props: ScheduledJobsProps) {
    super(scope, id, { description: 'Event calendar API: scheduled jobs' });
    const tableStack = Stack.of(props.table);
    const tableId = tableStack.getLogicalId(props.table.node.defaultChild as CfnResource);
    for (const spec of JOBS) {
      const job = new ApiFunction(this, spec.id, {
        repoRoot: props.repoRoot,
        handler: spec.handler,
        functionName: props.functionName(spec.name),
        environment: props.environment,
        logRetention: props.logRetention,
        retainLogs: props.retainLogs,
        timeout: spec.timeout,
      });
      const fn = job.fn;
      fn.addToRolePolicy(
        new PolicyStatement({ actions: JOB_TABLE_ACTIONS, resources: [props.table.tableArn] }),
      );
      // The lists and the lookups a write makes run on the table's indexes: queries only.
      fn.addToRolePolicy(
        new PolicyStatement({ actions: ['dynamodb:Query'], resources: [`${props.table.tableArn}/index/*`] }),
      );
      // Scheduler invokes the function asynchronously, which Lambda would retry twice on a failure: a
      // run that timed out would run again at the same cost, holding an execution of the account's few,
      // while the schedule starts the next run anyway (each is safe to repeat). A failed run is counted
      // in the function's Errors (alarmed); the schedule's own retries cover only a refused invocation.
      fn.configureAsyncInvoke({ retryAttempts: 0 });
      if (spec.sendsMail) {
        const identity =
          props.mailIdentityArn ?? `arn:${this.partition}:ses:${this.region}:${this.account}:identity/*`;
        fn.addToRolePolicy(
          new PolicyStatement({ actions: ['ses:SendEmail', 'ses:SendRawEmail'], resources: [identity] }),
        );
        if (!props.mailIdentityArn)
          Validations.of(job).acknowledge({
            id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>:identity/*]',
            reason:
              'No mailFrom in the context: the mail job may send as any verified identity of the account.',
          });
      }
      this.functions.set(spec.name, fn);

      this.schedules.set(
        spec.name,
        new Schedule(this, spec.scheduleId, {
          schedule: ScheduleExpression.rate(spec.rate),
          target: new LambdaInvoke(
            fn,
            spec.retryAttempts === undefined ? {} : { retryAttempts: spec.retryAttempts },
          ),
          description: spec.description,
        }),
      );
      // CDK's grantInvoke names the function and its versions (`<arn>:*`): this function, no other.
      Validations.of(this).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${this.getLogicalId(fn.node.defaultChild as CfnResource)}.Arn>:*]`,
        reason: `The schedule's role invokes the ${spec.name} job's function and its versions only.`,
      });
      Validations.of(job).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${tableId}.Arn>/index/*]`,
        reason: 'Queries only, on the global secondary indexes the lists and the writes read.',
      });
    }
    new FunctionAlarms(this, 'Alarms', { functions: this.functions });
  }
}
