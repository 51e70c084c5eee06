import { type CfnResource, Duration, NestedStack, Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Schedule, ScheduleExpression } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import type { Construct } from 'constructs';
import { FunctionAlarms } from './alarms';
import { scheduledParts } from '../shared/contracts/background';
import { ApiFunction, constructIdOf, type FunctionGroupProps } from './function-defaults';

/** The jobs' table grants, declared with the jobs (shared/contracts/background.ts). */
export { JOB_TABLE_ACTIONS } from '../shared/contracts/background';

/** The environment carries SERIES_HORIZON_MONTHS: the API's series writes read it too. */
export interface ScheduledJobsProps extends FunctionGroupProps {
  /** The SES identity the mail job sends as (`mailFrom`'s address or domain); every identity when absent. */
  mailIdentityArn?: string;
}

/**
 * The service's scheduled jobs, in a nested stack of their own, built from the scheduled parts of the
 * background list (shared/contracts/background.ts: the daily extend job of recurring events, the
 * finisher of series writes, the re-sync of feed imports, the publication of scheduled posts and the
 * attendees' mail), each
 * with its EventBridge Scheduler schedule and that schedule's role (allowed to invoke its function
 * only), and the functions' alarms. The jobs write what the API writes, with the same grants
 * (JOB_TABLE_ACTIONS); the re-sync also fetches feeds, guarded as the API's imports are (shared/outbound).
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
    for (const spec of scheduledParts()) {
      const job = new ApiFunction(this, constructIdOf(spec.name), {
        repoRoot: props.repoRoot,
        handler: spec.handler,
        functionName: props.functionName(spec.name),
        environment: props.environment,
        logRetention: props.logRetention,
        retainLogs: props.retainLogs,
        timeout: Duration.seconds(spec.timeoutSeconds),
        memoryMb: spec.memoryMb,
      });
      const fn = job.fn;
      fn.addToRolePolicy(
        new PolicyStatement({ actions: [...spec.grants.table], resources: [props.table.tableArn] }),
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
      if (spec.grants.sendsMail) {
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
        new Schedule(this, spec.trigger.scheduleId, {
          schedule: ScheduleExpression.rate(Duration.minutes(spec.trigger.rateMinutes)),
          target: new LambdaInvoke(
            fn,
            spec.trigger.retryAttempts === undefined ? {} : { retryAttempts: spec.trigger.retryAttempts },
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
