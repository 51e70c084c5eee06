import { describe, expect, it } from 'vitest';
import { JOB_TABLE_ACTIONS } from '../../infra/jobs';
import { RESYNC_LEASE_MS } from '../../shared/services/imports';
import { FINISHER_LEASE_MS } from '../../shared/services/series';
import { synth } from './synth';

/**
 * The deployed scheduled jobs: the extend job of recurring events (issue 27, docs/recurrence.md), run
 * daily, the finisher of series writes, run every minute, the publication of scheduled posts (issue 39),
 * run every minute, and the re-sync of feed imports (issue 30, docs/import-export.md), run every minute; each a
 * function run by an EventBridge Scheduler schedule, with least-privilege grants and an alarm on its
 * errors. That their grants cover what the jobs do is checked by running their bundles:
 * test/integration/deployed-bundles.test.ts.
 */
const dev = synth({ seriesHorizonMonths: 36 });
const jobs = dev.templates.find((t) => t.name === 'Test/Jobs')!.template;
const { resource: fn } = dev.fn('extendSeries');

type Statement = { Effect: string; Action: string | string[]; Resource: unknown };
/** The statements of a role's inline and attached policies, in the jobs' template. */
function statementsOf(roleId: string): Statement[] {
  const role = jobs.findResources('AWS::IAM::Role')[roleId]!;
  const attached = jobs.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } });
  return [
    ...((role.Properties.Policies ?? []) as Array<{ PolicyDocument: { Statement: Statement[] } }>),
    ...Object.values(attached).map((p) => p.Properties),
  ].flatMap((p) => p.PolicyDocument.Statement as Statement[]);
}
const schedules = Object.values(jobs.findResources('AWS::Scheduler::Schedule'));

it('has one schedule per job', () => {
  expect(schedules).toHaveLength(5);
});

describe.each([
  { job: 'extendSeries', rate: 'rate(1 day)', every: 'once a day' },
  { job: 'resyncImports', rate: 'rate(1 minute)', every: 'every minute' },
  { job: 'finishSeriesWrites', rate: 'rate(1 minute)', every: 'every minute' },
  { job: 'publishScheduled', rate: 'rate(1 minute)', every: 'every minute' },
  { job: 'sendMail', rate: 'rate(1 minute)', every: 'every minute' },
])('the $job schedule', ({ job, rate, every }) => {
  const { logicalId } = dev.fn(job);
  const fnArn = { 'Fn::GetAtt': [logicalId, 'Arn'] };
  const schedule = () =>
    schedules.find((s) => JSON.stringify(s.Properties.Target.Arn) === JSON.stringify(fnArn))!;

  it(`invokes its function ${every}`, () => {
    expect(schedule().Properties).toMatchObject({
      ScheduleExpression: rate,
      State: 'ENABLED',
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: { Arn: fnArn },
    });
  });

  it('is not retried by Lambda when a run fails: the next run of the schedule takes over (issue 38)', () => {
    const configs = Object.values(jobs.findResources('AWS::Lambda::EventInvokeConfig')).filter(
      (c) => c.Properties.FunctionName.Ref === logicalId,
    );
    expect(configs.map((c) => c.Properties)).toEqual([
      expect.objectContaining({ MaximumRetryAttempts: 0, Qualifier: '$LATEST' }),
    ]);
  });

  it("runs as a role that Scheduler alone assumes, for this account's schedules, and that may invoke this function only", () => {
    const roleId = schedule().Properties.Target.RoleArn['Fn::GetAtt'][0] as string;
    const role = jobs.findResources('AWS::IAM::Role')[roleId]!;
    const [trust] = role.Properties.AssumeRolePolicyDocument.Statement;
    expect(trust).toMatchObject({
      Action: 'sts:AssumeRole',
      Principal: { Service: 'scheduler.amazonaws.com' },
      Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
    });
    expect(JSON.stringify(trust.Condition.StringEquals['aws:SourceArn'])).toContain(
      ':schedule-group/default',
    );
    expect(statementsOf(roleId)).toEqual([
      {
        Effect: 'Allow',
        Action: 'lambda:InvokeFunction',
        Resource: [fnArn, { 'Fn::Join': ['', [fnArn, ':*']] }],
      },
    ]);
  });
});

describe('the publication of scheduled posts (issue 39)', () => {
  const { logicalId, resource } = dev.fn('publishScheduled');
  it('runs for a minute at most, with the settings of the API', () => {
    expect(resource.Properties).toMatchObject({
      FunctionName: 'Test-publishScheduled',
      Handler: 'index.handler',
      Timeout: 60,
    });
    expect(resource.Properties.Environment.Variables).toEqual(fn.Properties.Environment.Variables);
  });

  it('is not retried, by Lambda nor by its schedule: the next minute is the retry', () => {
    const fnArn = { 'Fn::GetAtt': [logicalId, 'Arn'] };
    const schedule = schedules.find(
      (s) => JSON.stringify(s.Properties.Target.Arn) === JSON.stringify(fnArn),
    )!;
    expect(schedule.Properties.Target.RetryPolicy).toMatchObject({ MaximumRetryAttempts: 0 });
    jobs.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: logicalId },
      MaximumRetryAttempts: 0,
    });
  });
});

describe('the extend function', () => {
  it('runs for up to 15 minutes, with the settings of the API', () => {
    expect(fn.Properties).toMatchObject({
      FunctionName: 'Test-extendSeries',
      Handler: 'index.handler',
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      Timeout: 900,
      TracingConfig: { Mode: 'Active' },
    });
    expect(fn.Properties.Environment.Variables).toMatchObject({
      TABLE_NAME: expect.anything(),
      SITE_URL: expect.anything(),
      SERIES_HORIZON_MONTHS: '36',
    });
  });

  it('takes the horizon from the seriesHorizonMonths context, as do the functions that write series', () => {
    expect(dev.fn('createEvent').resource.Properties.Environment.Variables.SERIES_HORIZON_MONTHS).toBe('36');
    expect(dev.fn('updateEvent').resource.Properties.Environment.Variables.SERIES_HORIZON_MONTHS).toBe('36');
    expect(() => synth({ seriesHorizonMonths: 1.5 })).toThrow(/seriesHorizonMonths.*whole number/);
  });
});

describe('the jobs', () => {
  it.each([
    { job: 'resyncImports', lease: RESYNC_LEASE_MS, what: 'its claim on an import' },
    { job: 'finishSeriesWrites', lease: FINISHER_LEASE_MS, what: "its claim on a series' journal" },
  ])('$job runs for as long as $what holds, with the settings of the API', ({ job, lease }) => {
    expect(dev.fn(job).resource.Properties).toMatchObject({
      FunctionName: `Test-${job}`,
      Handler: 'index.handler',
      Timeout: lease / 1000,
      TracingConfig: { Mode: 'Active' },
    });
    expect(dev.fn(job).resource.Properties.Environment.Variables).toEqual(
      fn.Properties.Environment.Variables,
    );
  });

  it.each(['extendSeries', 'resyncImports', 'finishSeriesWrites', 'publishScheduled', 'sendMail'])(
    "%s may read and write the table's items and query its indexes, and nothing more",
    (job) => {
      const roleId = dev.fn(job).resource.Properties.Role['Fn::GetAtt'][0] as string;
      const data = statementsOf(roleId).filter((s) =>
        [s.Action].flat().some((a) => a.startsWith('dynamodb:')),
      );
      const tableArn = (r: unknown) => JSON.stringify(r).match(/"(\w*DataTable\w*)"/)?.[1];
      expect(data).toHaveLength(2);
      const [items, indexes] = data as [Statement, Statement];
      expect([items.Action].flat().sort()).toEqual([...JOB_TABLE_ACTIONS].sort());
      expect(tableArn(items.Resource)).toBeDefined();
      expect(JSON.stringify(items.Resource)).not.toContain('index');
      expect(indexes.Action).toBe('dynamodb:Query');
      expect(JSON.stringify(indexes.Resource)).toMatch(/\/index\/\*"\]\]\}$/);
      const everything = statementsOf(roleId).flatMap((s) => [s.Action].flat());
      for (const broad of ['dynamodb:Scan', 'dynamodb:BatchWriteItem', 'dynamodb:*', 'lambda:InvokeFunction'])
        expect(everything).not.toContain(broad);
    },
  );

  it.each(['extendSeries', 'resyncImports', 'finishSeriesWrites', 'publishScheduled', 'sendMail'])(
    '%s has an alarm on its errors (any failed run) and one on its throttles',
    (job) => {
      const alarms = Object.values(jobs.findResources('AWS::CloudWatch::Alarm'));
      const id = dev.fn(job).logicalId;
      const errors = alarms.filter(
        (a) =>
          a.Properties.MetricName === 'Errors' &&
          JSON.stringify(a.Properties.Dimensions ?? []).includes(`"${id}"`),
      );
      expect(errors).toHaveLength(1);
      expect(errors[0]!.Properties).toMatchObject({
        Namespace: 'AWS/Lambda',
        Dimensions: [{ Name: 'FunctionName', Value: { Ref: id } }],
        Statistic: 'Sum',
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
      });
      // Throttles are summed for up to ten functions an alarm (infra/alarms.ts): one for all the jobs.
      const throttles = alarms.filter((a) =>
        JSON.stringify(a.Properties.Metrics ?? []).includes('Throttles'),
      );
      expect(throttles).toHaveLength(1);
      expect(JSON.stringify(throttles[0]!.Properties.Metrics)).toContain(`"${id}"`);
      // An Errors alarm per job and the throttles'.
      expect(alarms).toHaveLength(6);
    },
  );
});

describe('the mail job (issue 42, docs/tickets.md)', () => {
  const sesActions = (roleId: string) =>
    statementsOf(roleId).filter((s) => [s.Action].flat().some((a) => a.startsWith('ses:')));
  const roleOf = (s: ReturnType<typeof synth>, job: string) =>
    s.fn(job).resource.Properties.Role['Fn::GetAtt'][0] as string;

  it('alone may send mail, as the mailFrom identity of the context', () => {
    const withSender = synth({ mailFrom: 'Events <tickets@example.org>' });
    const jobsOf = withSender.templates.find((t) => t.name === 'Test/Jobs')!.template;
    const roleId = roleOf(withSender, 'sendMail');
    const role = jobsOf.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } });
    const statements = Object.values(role).flatMap(
      (p) => p.Properties.PolicyDocument.Statement as Statement[],
    );
    const ses = statements.filter((s) => [s.Action].flat().some((a) => a.startsWith('ses:')));
    expect(ses).toHaveLength(1);
    expect([ses[0]!.Action].flat().sort()).toEqual(['ses:SendEmail', 'ses:SendRawEmail']);
    expect(JSON.stringify(ses[0]!.Resource)).toContain(':identity/tickets@example.org');
    expect(withSender.fn('sendMail').resource.Properties.Environment.Variables).toMatchObject({
      MAIL_TRANSPORT: 'ses',
      MAIL_FROM: 'Events <tickets@example.org>',
    });
    for (const job of ['extendSeries', 'publishScheduled']) expect(sesActions(roleOf(dev, job))).toEqual([]);
  });
});
