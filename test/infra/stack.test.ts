import { App } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { Match, Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { type EventsApi, NAMESPACE_PATH } from '../../infra/api';
import { CalEventsStack } from '../../infra/stack';
import { operations } from '../../shared/contracts';
import { TABLE } from '../../shared/db/table';
import { OPERATION_FUNCTIONS_ENV } from '../../shared/http/dispatch';

const WRITE_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
];

/**
 * Synthesizes the real stack. CDK's own `aws:cdk:bundling-stacks` key (what `cdk deploy StackA` uses
 * for the stacks it skips) leaves esbuild out, so only the code asset differs from a deployment; the
 * entries must still exist, so a missing handler file fails here.
 */
function synth(context: Record<string, unknown> = {}) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  const stack = new CalEventsStack(app, 'Test');
  const api = stack.node.findChild('Api') as EventsApi;
  const logicalId = (name: string) => {
    const fn = api.functions.get(name);
    if (!fn) throw new Error(`no function ${name}`);
    return stack.getLogicalId(fn.node.defaultChild as CfnFunction);
  };
  return { template: Template.fromStack(stack), logicalId };
}

const dev = synth();

/** Every IAM action granted to one function's role. */
function actionsOf(template: Template, fnLogicalId: string): string[] {
  const fn = template.findResources('AWS::Lambda::Function')[fnLogicalId]!;
  const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
  const policies = template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } });
  return Object.values(policies).flatMap((p) =>
    p.Properties.PolicyDocument.Statement.flatMap((s: { Action: string | string[] }) => [s.Action].flat()),
  );
}

describe('routes', () => {
  it('declares one route per operation and method, plus $default', () => {
    const expected = operations.flatMap((op) => op.methods.map((m) => `${m} ${NAMESPACE_PATH}${op.path}`));
    const keys = Object.values(dev.template.findResources('AWS::ApiGatewayV2::Route')).map(
      (r) => r.Properties.RouteKey,
    );
    expect(keys.sort()).toEqual([...expected, '$default'].sort());
  });

  it('sends every route to the function of its operation', () => {
    const routes = Object.values(dev.template.findResources('AWS::ApiGatewayV2::Route'));
    const integrations = dev.template.findResources('AWS::ApiGatewayV2::Integration');
    const target = (routeKey: string) => {
      const route = routes.find((r) => r.Properties.RouteKey === routeKey)!;
      const integrationId = route.Properties.Target['Fn::Join'][1][1].Ref as string;
      return integrations[integrationId]!.Properties.IntegrationUri['Fn::GetAtt'][0];
    };
    for (const op of operations)
      for (const m of op.methods)
        expect(target(`${m} ${NAMESPACE_PATH}${op.path}`)).toBe(dev.logicalId(op.operationId));
    expect(target('$default')).toBe(dev.logicalId('noRoute'));
  });

  it('answers CORS preflight in the gateway with the exposed paging headers', () => {
    dev.template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: {
        AllowOrigins: ['*'],
        // Conditional requests and safe retries send these from browsers (issue 10).
        AllowHeaders: [
          'Authorization',
          'Content-Type',
          'If-Match',
          'If-None-Match',
          'If-Modified-Since',
          'Idempotency-Key',
        ],
        AllowMethods: ['*'],
        ExposeHeaders: Match.arrayWith(['X-Cal-Total', 'X-Cal-TotalPages', 'Link', 'Allow']),
      },
    });
  });

  it('throttles the default stage from context', () => {
    const { template } = synth({ throttleRate: 7, throttleBurst: 9 });
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 7, ThrottlingBurstLimit: 9 },
    });
  });
});

describe('functions', () => {
  it('creates one Node.js 22 arm64 function per operation and one for unmatched routes', () => {
    const fns = Object.values(dev.template.findResources('AWS::Lambda::Function'));
    expect(fns).toHaveLength(operations.length + 1);
    for (const fn of fns) {
      expect(fn.Properties.Runtime).toBe('nodejs22.x');
      expect(fn.Properties.Architectures).toEqual(['arm64']);
      expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
    }
  });

  it('gives every function the runtime settings', () => {
    dev.template.allResourcesProperties('AWS::Lambda::Function', {
      MemorySize: 512,
      Timeout: 10,
      Environment: {
        Variables: Match.objectLike({
          TABLE_NAME: Match.anyValue(),
          SITE_URL: 'https://example.com',
          SITE_TIMEZONE: 'UTC',
          MAX_PER_PAGE: '50',
          AUTH_JWKS_URL: Match.anyValue(),
          AUTH_ISSUER: Match.anyValue(),
          AUTH_AUDIENCE: Match.anyValue(),
          NODE_OPTIONS: '--enable-source-maps',
          POWERTOOLS_SERVICE_NAME: Match.anyValue(),
          POWERTOOLS_METRICS_NAMESPACE: 'CalEvents',
        }),
      },
    });
  });

  it('grants read-only operations no write actions', () => {
    for (const op of operations.filter((o) => o.readOnly)) {
      const actions = actionsOf(dev.template, dev.logicalId(op.operationId));
      expect(actions, op.operationId).toContain('dynamodb:Query');
      expect(
        actions.filter((a) => WRITE_ACTIONS.includes(a)),
        op.operationId,
      ).toEqual([]);
    }
    const fallback = actionsOf(dev.template, dev.logicalId('noRoute'));
    expect(fallback.filter((a) => WRITE_ACTIONS.includes(a))).toEqual([]);
  });

  it('grants writing operations the write actions', () => {
    for (const op of operations.filter((o) => !o.readOnly)) {
      expect(actionsOf(dev.template, dev.logicalId(op.operationId)), op.operationId).toEqual(
        expect.arrayContaining(WRITE_ACTIONS),
      );
    }
  });

  it('takes the metric namespace from context', () => {
    const { template } = synth({ metricsNamespace: 'Calendar/Prod' });
    template.allResourcesProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ POWERTOOLS_METRICS_NAMESPACE: 'Calendar/Prod' }) },
    });
  });

  it('gives every function a role of its own without managed policies, writing only its own log group', () => {
    const fns = dev.template.findResources('AWS::Lambda::Function');
    const roles = dev.template.findResources('AWS::IAM::Role');
    for (const [id, fn] of Object.entries(fns)) {
      const role = roles[fn.Properties.Role['Fn::GetAtt'][0] as string]!;
      const logGroupId = fn.Properties.LoggingConfig.LogGroup.Ref as string;
      expect(role.Properties.ManagedPolicyArns, id).toBeUndefined();
      expect(role.Properties.Policies, id).toEqual([
        {
          PolicyName: 'Logs',
          PolicyDocument: {
            Version: '2012-10-17',
            Statement: [
              {
                Effect: 'Allow',
                Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
                Resource: { 'Fn::GetAtt': [logGroupId, 'Arn'] },
              },
            ],
          },
        },
      ]);
    }
  });

  it('keeps logs in a log group per function with a retention', () => {
    const groups = dev.template.findResources('AWS::Logs::LogGroup', { Properties: { RetentionInDays: 14 } });
    // one per function plus the access log
    expect(Object.keys(groups)).toHaveLength(operations.length + 2);
  });
});

/** Every IAM statement of one function's role: its inline policies and managed ones CDK may split off. */
function statementsOf(
  template: Template,
  fnLogicalId: string,
): Array<{ Action: string | string[]; Resource: unknown }> {
  const fn = template.findResources('AWS::Lambda::Function')[fnLogicalId]!;
  const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
  const byRole = { Properties: { Roles: [{ Ref: roleId }] } };
  return [
    ...Object.values(template.findResources('AWS::IAM::Policy', byRole)),
    ...Object.values(template.findResources('AWS::IAM::ManagedPolicy', byRole)),
  ].flatMap((p) => p.Properties.PolicyDocument.Statement);
}

const READ_GRANT = [
  'xray:PutTraceSegments',
  'xray:PutTelemetryRecords',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:GetItem',
  'dynamodb:Scan',
  'dynamodb:ConditionCheckItem',
  'dynamodb:DescribeTable',
  'dynamodb:GetRecords',
  'dynamodb:GetShardIterator',
];

/** A CloudFormation string built with Fn::Join, with every `{ Ref: X }` written as X. */
function joinWithRefs(value: { 'Fn::Join': [string, Array<string | { Ref: string }>] }): string {
  const [separator, parts] = value['Fn::Join'];
  return parts.map((p) => (typeof p === 'string' ? p : p.Ref)).join(separator);
}

describe('trailing slash dispatch from $default (decisions §1)', () => {
  const variablesOf = (name: string) =>
    dev.template.findResources('AWS::Lambda::Function')[dev.logicalId(name)]!.Properties.Environment
      .Variables as Record<string, unknown>;

  it("tells the $default function the name of every operation's function", () => {
    const map = JSON.parse(joinWithRefs(variablesOf('noRoute')[OPERATION_FUNCTIONS_ENV] as never));

    expect(map).toEqual(
      Object.fromEntries(operations.map((op) => [op.operationId, dev.logicalId(op.operationId)])),
    );
  });

  it('gives that map to the $default function only', () => {
    for (const op of operations)
      expect(variablesOf(op.operationId), op.operationId).not.toHaveProperty(OPERATION_FUNCTIONS_ENV);
  });

  it("keeps the $default function's environment under Lambda's 4 KB, even with 64-character names", () => {
    const variables = variablesOf('noRoute');
    const size = Object.entries(variables).reduce((n, [k, v]) => {
      if (typeof v === 'string') return n + k.length + v.length;
      if (k === OPERATION_FUNCTIONS_ENV) {
        const parts = (v as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];
        return n + k.length + parts.reduce<number>((m, p) => m + (typeof p === 'string' ? p.length : 64), 0);
      }
      return n + k.length + 128; // another deploy-time value: table name, Cognito issuer / JWKS URL, client ID
    }, 0);

    expect(size).toBeLessThan(4096);
  });

  it("lets the $default function invoke exactly the operations' functions", () => {
    const statements = statementsOf(dev.template, dev.logicalId('noRoute')).filter((s) =>
      [s.Action].flat().some((a) => a.startsWith('lambda:')),
    );

    expect(statements.flatMap((s) => [s.Action].flat())).toEqual(['lambda:InvokeFunction']);
    const resources = statements.flatMap((s) => [s.Resource].flat());
    expect(resources).toEqual(
      expect.arrayContaining(
        operations.map((op) => ({ 'Fn::GetAtt': [dev.logicalId(op.operationId), 'Arn'] })),
      ),
    );
    expect(resources).toHaveLength(operations.length);
  });

  it("leaves the operations' own grants as they were: no invoke, read-only ones read only", () => {
    for (const op of operations) {
      const actions = actionsOf(dev.template, dev.logicalId(op.operationId));
      expect(
        actions.filter((a) => a.startsWith('lambda:')),
        op.operationId,
      ).toEqual([]);
      if (op.readOnly) expect([...actions].sort(), op.operationId).toEqual([...READ_GRANT].sort());
    }
  });

  it('keeps the $default function from writing data', () => {
    const actions = statementsOf(dev.template, dev.logicalId('noRoute')).flatMap((s) => [s.Action].flat());

    expect(actions.filter((a) => a !== 'lambda:InvokeFunction').sort()).toEqual([...READ_GRANT].sort());
  });
});

describe('table', () => {
  it('declares the keys and every index of the shared table definition', () => {
    const indexes = Object.values(TABLE.indexes);
    dev.template.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
      ],
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      GlobalSecondaryIndexes: indexes.map((ix) => ({
        IndexName: ix.name,
        KeySchema: [
          { AttributeName: ix.partitionKey, KeyType: 'HASH' },
          { AttributeName: ix.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    });
  });

  it('is disposable in dev', () => {
    dev.template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Delete',
      Properties: Match.objectLike({ DeletionProtectionEnabled: false }),
    });
  });

  it('is retained and protected from deletion in prod', () => {
    synth({ stage: 'prod' }).template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({ DeletionProtectionEnabled: true }),
    });
  });
});

describe('authentication', () => {
  it('creates a Cognito user pool with one group per role by default', () => {
    dev.template.resourceCountIs('AWS::Cognito::UserPool', 1);
    dev.template.resourceCountIs('AWS::Cognito::UserPoolClient', 1);
    const groups = Object.values(dev.template.findResources('AWS::Cognito::UserPoolGroup'));
    expect(groups.map((g) => g.Properties.GroupName).sort()).toEqual([
      'administrator',
      'author',
      'contributor',
      'editor',
      'subscriber',
    ]);
    expect(Object.keys(dev.template.findOutputs('*'))).toEqual(
      expect.arrayContaining(['ApiUrl', 'TableName', 'UserPoolId', 'UserPoolClientId']),
    );
  });

  it('trusts an external OIDC issuer instead when one is configured', () => {
    const { template } = synth({
      oidcIssuer: 'https://id.example.org/',
      oidcJwksUrl: 'https://id.example.org/jwks',
      oidcAudience: 'cal-api',
    });
    template.resourceCountIs('AWS::Cognito::UserPool', 0);
    expect(Object.keys(template.findOutputs('*'))).not.toContain('UserPoolId');
    template.allResourcesProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({
          AUTH_ISSUER: 'https://id.example.org/',
          AUTH_JWKS_URL: 'https://id.example.org/jwks',
          AUTH_AUDIENCE: 'cal-api',
        }),
      },
    });
  });

  it('puts no authorizer in front of the routes', () => {
    dev.template.resourceCountIs('AWS::ApiGatewayV2::Authorizer', 0);
  });
});

describe('alarms', () => {
  const alarms = () => Object.values(dev.template.findResources('AWS::CloudWatch::Alarm'));
  const functionCount = operations.length + 1;
  const throttleAlarms = Math.ceil(functionCount / 10);
  /** The metrics (namespace, name, dimension names) a metric-math alarm reads. */
  const mathMetrics = (alarm: any) =>
    (alarm.Properties.Metrics as any[])
      .filter((m) => m.MetricStat)
      .map((m) => m.MetricStat.Metric as { Namespace: string; MetricName: string; Dimensions: any[] });

  it('watches API 5xx, every function and table throttling', () => {
    dev.template.resourceCountIs('AWS::CloudWatch::Alarm', 1 + 1 + functionCount + throttleAlarms + 1);
    dev.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: '5xx',
      Namespace: 'AWS/ApiGateway',
    });
  });

  it('watches the share of 5xx answers', () => {
    const [rate] = alarms().filter((a) =>
      /IF\(requests > 0/.test(JSON.stringify(a.Properties.Metrics ?? '')),
    );

    expect(rate?.Properties).toMatchObject({
      Threshold: 5,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    expect(
      mathMetrics(rate)
        .map((m) => `${m.Namespace} ${m.MetricName}`)
        .sort(),
    ).toEqual(['AWS/ApiGateway 5xx', 'AWS/ApiGateway Count']);
  });

  it('watches the errors of every function', () => {
    const watched = alarms()
      .filter((a) => a.Properties.Namespace === 'AWS/Lambda' && a.Properties.MetricName === 'Errors')
      .map((a) => a.Properties.Dimensions[0].Value.Ref);

    expect(watched.sort()).toEqual(
      [...operations.map((op) => dev.logicalId(op.operationId)), dev.logicalId('noRoute')].sort(),
    );
  });

  it('watches the throttles of every function, ten functions an alarm', () => {
    const throttled = alarms()
      .filter((a) => a.Properties.Metrics)
      .flatMap(mathMetrics)
      .filter((m) => m.Namespace === 'AWS/Lambda');

    expect(throttled.every((m) => m.MetricName === 'Throttles')).toBe(true);
    expect(throttled.map((m) => m.Dimensions[0].Value.Ref).sort()).toEqual(
      [...operations.map((op) => dev.logicalId(op.operationId)), dev.logicalId('noRoute')].sort(),
    );
  });

  it('watches DynamoDB throttling of the table', () => {
    const table = Object.keys(dev.template.findResources('AWS::DynamoDB::Table'))[0]!;
    const throttles = alarms()
      .filter((a) => a.Properties.Metrics)
      .flatMap(mathMetrics)
      .filter((m) => m.Namespace === 'AWS/DynamoDB');

    expect(throttles.length).toBeGreaterThan(0);
    expect(throttles.every((m) => m.MetricName === 'ThrottledRequests')).toBe(true);
    expect(throttles.every((m) => m.Dimensions.some((d: any) => d.Value.Ref === table))).toBe(true);
  });
});

describe('cdk-nag AWS Solutions checks', () => {
  /** Every finding not acknowledged in the code (each acknowledgement carries its reason there). */
  const findings = (context: Record<string, unknown> = {}) => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
    const stack = new CalEventsStack(app, 'Nag');
    const report = new AwsSolutionsChecks(app).validateScope(stack);
    return report.violations.flatMap((v) =>
      v.violatingResources.map(
        (r) => `${v.ruleName} (${v.severity}) ${r.constructPath ?? r.resourceLogicalId}`,
      ),
    );
  };

  it('passes for the dev stack, with its own Cognito user pool', () => {
    expect(findings()).toEqual([]);
  });

  it('passes for a prod stack trusting an external OIDC issuer', () => {
    expect(
      findings({
        stage: 'prod',
        oidcIssuer: 'https://issuer.example.com',
        oidcJwksUrl: 'https://issuer.example.com/jwks.json',
      }),
    ).toEqual([]);
  });
});
