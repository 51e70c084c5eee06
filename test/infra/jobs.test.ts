import { describe, expect, it } from 'vitest';
import { EXTEND_SERIES_TABLE_ACTIONS } from '../../infra/jobs';
import { synth } from './synth';

/**
 * The deployed extend job of recurring events (issue 27, docs/recurrence.md): a function run daily by an
 * EventBridge Scheduler schedule, with least-privilege grants and an alarm on its errors. That its grants
 * cover what the job does is checked by running its bundle: test/integration/deployed-bundles.test.ts.
 */
const dev = synth({ seriesHorizonMonths: 36 });
const jobs = dev.templates.find((t) => t.name === 'Test/Jobs')!.template;
const { logicalId: fnId, resource: fn } = dev.fn('extendSeries');

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
const fnArn = { 'Fn::GetAtt': [fnId, 'Arn'] };

describe('the daily schedule', () => {
  const schedules = Object.values(jobs.findResources('AWS::Scheduler::Schedule'));

  it('invokes the extend function once a day', () => {
    expect(schedules).toHaveLength(1);
    expect(schedules[0]!.Properties).toMatchObject({
      ScheduleExpression: 'rate(1 day)',
      State: 'ENABLED',
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: { Arn: fnArn },
    });
  });

  it("runs as a role that Scheduler alone assumes, for this account's schedules, and that may invoke this function only", () => {
    const roleId = schedules[0]!.Properties.Target.RoleArn['Fn::GetAtt'][0] as string;
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

  it("may read and write the table's items and query its indexes, and nothing more", () => {
    const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
    const data = statementsOf(roleId).filter((s) => [s.Action].flat().some((a) => a.startsWith('dynamodb:')));
    const tableArn = (r: unknown) => JSON.stringify(r).match(/"(\w*DataTable\w*)"/)?.[1];
    expect(data).toHaveLength(2);
    const [items, indexes] = data as [Statement, Statement];
    expect([items.Action].flat().sort()).toEqual([...EXTEND_SERIES_TABLE_ACTIONS].sort());
    expect(tableArn(items.Resource)).toBeDefined();
    expect(JSON.stringify(items.Resource)).not.toContain('index');
    expect(indexes.Action).toBe('dynamodb:Query');
    expect(JSON.stringify(indexes.Resource)).toMatch(/\/index\/\*"\]\]\}$/);
    const everything = statementsOf(roleId).flatMap((s) => [s.Action].flat());
    for (const broad of ['dynamodb:Scan', 'dynamodb:BatchWriteItem', 'dynamodb:*', 'lambda:InvokeFunction'])
      expect(everything).not.toContain(broad);
  });

  it('has an alarm on its errors (any failed run) and one on its throttles', () => {
    const alarms = Object.values(jobs.findResources('AWS::CloudWatch::Alarm'));
    const errors = alarms.filter((a) => a.Properties.MetricName === 'Errors');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.Properties).toMatchObject({
      Namespace: 'AWS/Lambda',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: fnId } }],
      Statistic: 'Sum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
    expect(alarms).toHaveLength(2);
  });
});
