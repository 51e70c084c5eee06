import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { App } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { PAGE_ROUTE_KEYS, TICKET_PAGE_ROUTE_KEYS } from '../../infra/site';
import { CalEventsStack } from '../../infra/stack';
import { operations, routeOf } from '../../shared/contracts';
import { IMPORT_TIMEOUT_SECONDS } from '../../shared/contracts/imports';
import { TABLE } from '../../shared/db/table';
import { OPERATION_FUNCTION_PREFIX_ENV } from '../../shared/http/dispatch';
import { type Synth, synth } from './synth';

const WRITE_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
];

const dev = synth();
/** The templates of the API: the service's stack and the families' (not the page's, not the jobs'). */
const apiTemplates = (s: Synth) =>
  s.templates.filter(
    (t) => !t.name.endsWith('/Site') && !t.name.endsWith('/Jobs') && !t.name.endsWith('/WebhookEngine'),
  );
/**
 * Every function of the service: the operations', `$default`'s, the public pages' (issue 29), the
 * tickets' pages' (issue 42) and the daily extend job of recurring events (issue 27).
 */
const allFunctionNames = [
  ...operations.map((op) => op.operationId),
  'noRoute',
  'renderPage',
  // The tickets' pages' (issue 42): the registration form and the attendee's own pages.
  'ticketPages',
  'extendSeries',
  // The finisher of series writes (issue 27): test/infra/jobs.test.ts.
  'finishSeriesWrites',
  // The re-sync of feed imports (issue 30): test/infra/jobs.test.ts.
  'resyncImports',
  // The publication of scheduled posts (issue 39): test/infra/jobs.test.ts.
  'publishScheduled',
  // The sender of attendees' e-mails (issue 42): test/infra/jobs.test.ts.
  'sendMail',
  // The webhook engine's (issue 28): test/infra/webhook-engine.test.ts.
  'webhookDispatch',
  'webhookDeliver',
];

describe('the functions (issue 38)', () => {
  it("are as many as docs/operations.md says, which share a new account's concurrency", () => {
    const doc = readFileSync(fileURLToPath(new URL('../../docs/operations.md', import.meta.url)), 'utf8');
    const [, all, withoutSite, ops] =
      /app has (\d+) functions \((\d+) with `-c site=false`\): one per operation \((\d+)\)/.exec(
        doc.replace(/\s+/g, ' '),
      )!;
    expect([...dev.functions.keys()].sort()).toEqual([...allFunctionNames].sort());
    expect(Number(all)).toBe(dev.functions.size);
    // The site's stack holds two: the public pages' and the tickets' pages' (issue 42).
    expect(Number(withoutSite)).toBe(dev.functions.size - 2);
    expect(Number(ops)).toBe(operations.length);
  });
});

/** Every IAM statement of one function's role, in its template: its inline policies' and policy resources'. */
function statementsOf(
  s: Synth,
  name: string,
): Array<{ Action: string | string[]; Resource: unknown; Effect: string }> {
  const { template, resource } = s.fn(name);
  const roleId = resource.Properties.Role['Fn::GetAtt'][0] as string;
  const role = template.findResources('AWS::IAM::Role')[roleId]!;
  const byRole = { Properties: { Roles: [{ Ref: roleId }] } };
  return [
    ...((role.Properties.Policies ?? []) as Array<{ PolicyDocument: { Statement: unknown[] } }>).map(
      (p) => p.PolicyDocument,
    ),
    ...Object.values(template.findResources('AWS::IAM::Policy', byRole)).map(
      (p) => p.Properties.PolicyDocument,
    ),
    ...Object.values(template.findResources('AWS::IAM::ManagedPolicy', byRole)).map(
      (p) => p.Properties.PolicyDocument,
    ),
  ].flatMap((d) => d.Statement) as never;
}

/** Every IAM action granted to one function's role by policies other than its log grant. */
const actionsOf = (s: Synth, name: string): string[] =>
  statementsOf(s, name)
    .flatMap((st) => [st.Action].flat())
    .filter((a) => !a.startsWith('logs:'));

describe('routes', () => {
  it("declares one route per operation and method, plus $default, the public pages' (issue 29) and the tickets' pages' (issue 42)", () => {
    const expected = operations.flatMap((op) => op.methods.map((m) => `${m} ${routeOf(op)}`));
    const keys = Object.values(dev.resources('AWS::ApiGatewayV2::Route')).map((r) => r.Properties.RouteKey);
    expect(keys.sort()).toEqual(
      [...expected, '$default', ...PAGE_ROUTE_KEYS, ...TICKET_PAGE_ROUTE_KEYS].sort(),
    );
  });

  it('sends every route to the function of its operation, in the same template', () => {
    const target = new Map<string, { template: unknown; fnId: string }>();
    for (const { template } of dev.templates) {
      const integrations = template.findResources('AWS::ApiGatewayV2::Integration');
      for (const route of Object.values(template.findResources('AWS::ApiGatewayV2::Route'))) {
        const integrationId = route.Properties.Target['Fn::Join'][1][1].Ref as string;
        const fnId = integrations[integrationId]!.Properties.IntegrationUri['Fn::GetAtt'][0] as string;
        target.set(route.Properties.RouteKey, { template, fnId });
      }
    }
    const expectTarget = (routeKey: string, name: string) => {
      const { template, logicalId } = dev.fn(name);
      expect(target.get(routeKey), routeKey).toEqual({ template, fnId: logicalId });
    };
    for (const op of operations)
      for (const m of op.methods) expectTarget(`${m} ${routeOf(op)}`, op.operationId);
    expectTarget('$default', 'noRoute');
    for (const key of PAGE_ROUTE_KEYS) expectTarget(key, 'renderPage');
    for (const key of TICKET_PAGE_ROUTE_KEYS) expectTarget(key, 'ticketPages');
  });

  it('answers CORS preflight in the gateway with the exposed paging headers', () => {
    dev.parent.hasResourceProperties('AWS::ApiGatewayV2::Api', {
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
        // Browsers keep a preflight's answer an hour (issue 38).
        MaxAge: 3600,
      },
    });
  });

  it('throttles the default stage from context', () => {
    const { parent: template } = synth({ throttleRate: 7, throttleBurst: 9 });
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 7, ThrottlingBurstLimit: 9 },
    });
  });
});

describe('functions', () => {
  it('creates one Node.js 22 arm64 function per operation and one for unmatched routes', () => {
    const fns = apiTemplates(dev).flatMap((t) =>
      Object.values(t.template.findResources('AWS::Lambda::Function')),
    );
    expect(fns).toHaveLength(operations.length + 1);
    for (const fn of fns) {
      expect(fn.Properties.Runtime).toBe('nodejs22.x');
      expect(fn.Properties.Architectures).toEqual(['arm64']);
      expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
    }
  });

  it('gives every function the runtime settings', () => {
    for (const { template } of apiTemplates(dev))
      template.allResourcesProperties('AWS::Lambda::Function', {
        MemorySize: 512,
        // 10 s, or the operation's own (issue 30: the imports run in the request): checked below.
        Timeout: Match.anyValue(),
        Environment: {
          Variables: Match.objectLike({
            TABLE_NAME: Match.anyValue(),
            SITE_URL: Match.anyValue(),
            SITE_TIMEZONE: 'UTC',
            MAX_PER_PAGE: '50',
            SERIES_HORIZON_MONTHS: '24',
            AUTH_JWKS_URL: Match.anyValue(),
            AUTH_ISSUER: Match.anyValue(),
            NODE_OPTIONS: '--enable-source-maps',
            POWERTOOLS_SERVICE_NAME: Match.anyValue(),
            POWERTOOLS_METRICS_NAMESPACE: 'CalEvents',
          }),
        },
      });
  });

  it('gives each function 10 s, the operations that run an import in the request 29 s, and noRoute the longest', () => {
    const longer = operations.filter((op) => op.timeoutSeconds !== undefined).map((op) => op.operationId);
    expect(longer.sort()).toEqual(['createImport', 'updateImport']);
    for (const op of operations)
      expect(dev.fn(op.operationId).resource.Properties.Timeout, op.operationId).toBe(
        longer.includes(op.operationId) ? IMPORT_TIMEOUT_SECONDS : 10,
      );
    // noRoute waits for the function it forwards a slashed path to: the longest of theirs (issue 38).
    const longest = Math.max(...operations.map((op) => dev.fn(op.operationId).resource.Properties.Timeout));
    expect(longest).toBe(IMPORT_TIMEOUT_SECONDS);
    expect(dev.fn('noRoute').resource.Properties.Timeout).toBe(longest);
  });

  it('grants read-only operations no write actions', () => {
    for (const op of operations.filter((o) => o.readOnly)) {
      const actions = actionsOf(dev, op.operationId);
      expect(actions, op.operationId).toContain('dynamodb:Query');
      expect(
        actions.filter((a) => WRITE_ACTIONS.includes(a)),
        op.operationId,
      ).toEqual([]);
    }
    const fallback = actionsOf(dev, 'noRoute');
    expect(fallback.filter((a) => WRITE_ACTIONS.includes(a))).toEqual([]);
  });

  it('grants writing operations the write actions', () => {
    for (const op of operations.filter((o) => !o.readOnly)) {
      expect(actionsOf(dev, op.operationId), op.operationId).toEqual(expect.arrayContaining(WRITE_ACTIONS));
    }
  });

  it('takes the metric namespace from context', () => {
    for (const { template } of apiTemplates(synth({ metricsNamespace: 'Calendar/Prod' })))
      template.allResourcesProperties('AWS::Lambda::Function', {
        Environment: { Variables: Match.objectLike({ POWERTOOLS_METRICS_NAMESPACE: 'Calendar/Prod' }) },
      });
  });

  it('gives every function a role of its own without managed policies, writing only its own log group', () => {
    for (const name of allFunctionNames) {
      const { template, resource: fn } = dev.fn(name);
      const role = template.findResources('AWS::IAM::Role')[fn.Properties.Role['Fn::GetAtt'][0] as string]!;
      const logGroupId = fn.Properties.LoggingConfig.LogGroup.Ref as string;
      expect(role.Properties.ManagedPolicyArns, name).toBeUndefined();
      expect(role.Properties.Policies, name).toEqual([
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
    const groups = apiTemplates(dev).flatMap((t) =>
      Object.keys(t.template.findResources('AWS::Logs::LogGroup', { Properties: { RetentionInDays: 14 } })),
    );
    // one per function plus the access log
    expect(groups).toHaveLength(operations.length + 2);
  });
});

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
    dev.fn(name).resource.Properties.Environment.Variables as Record<string, unknown>;

  it("tells the $default function the prefix of the operations' function names, which name them", () => {
    expect(variablesOf('noRoute')[OPERATION_FUNCTION_PREFIX_ENV]).toBe('Test-');
    for (const op of operations)
      expect(dev.fn(op.operationId).resource.Properties.FunctionName).toBe(`Test-${op.operationId}`);
  });

  it('gives that setting to the $default function only', () => {
    for (const op of operations)
      expect(variablesOf(op.operationId), op.operationId).not.toHaveProperty(OPERATION_FUNCTION_PREFIX_ENV);
  });

  it("lets the $default function invoke exactly the operations' functions", () => {
    const statements = statementsOf(dev, 'noRoute').filter((s) =>
      [s.Action].flat().some((a) => a.startsWith('lambda:')),
    );

    expect(statements.flatMap((s) => [s.Action].flat())).toEqual(['lambda:InvokeFunction']);
    const resources = statements.flatMap((s) => [s.Resource].flat()).map((r) => joinWithRefs(r as never));
    expect(resources.sort()).toEqual(
      operations
        .map((op) => `arn:AWS::Partition:lambda:AWS::Region:AWS::AccountId:function:Test-${op.operationId}`)
        .sort(),
    );
  });

  it("leaves the operations' own grants as they were: no invoke, read-only ones read only", () => {
    for (const op of operations) {
      const actions = actionsOf(dev, op.operationId);
      expect(
        actions.filter((a) => a.startsWith('lambda:')),
        op.operationId,
      ).toEqual([]);
      if (op.readOnly) expect([...actions].sort(), op.operationId).toEqual([...READ_GRANT].sort());
    }
  });

  it('keeps the $default function from writing data', () => {
    const actions = actionsOf(dev, 'noRoute');

    expect(actions.filter((a) => a !== 'lambda:InvokeFunction').sort()).toEqual([...READ_GRANT].sort());
  });
});

describe('table', () => {
  it('declares the keys and every index of the shared table definition', () => {
    const indexes = Object.values(TABLE.indexes);
    dev.parent.hasResourceProperties('AWS::DynamoDB::Table', {
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
    dev.parent.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Delete',
      Properties: Match.objectLike({ DeletionProtectionEnabled: false }),
    });
  });

  it('is retained and protected from deletion in prod, except when its first create rolls back (issue 38)', () => {
    synth({ stage: 'prod', siteUrl: 'https://calendar.example.org' }).parent.hasResource(
      'AWS::DynamoDB::Table',
      {
        DeletionPolicy: 'RetainExceptOnCreate',
        UpdateReplacePolicy: 'Retain',
        Properties: Match.objectLike({ DeletionProtectionEnabled: true }),
      },
    );
  });

  it('can deploy prod unprotected, so that a first create can roll back (DeleteTable refuses a protected table)', () => {
    const firstDeploy = synth({
      stage: 'prod',
      siteUrl: 'https://calendar.example.org',
      deletionProtection: false,
    }).parent;
    firstDeploy.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'RetainExceptOnCreate',
      Properties: Match.objectLike({ DeletionProtectionEnabled: false }),
    });
    firstDeploy.hasResource('AWS::Cognito::UserPool', {
      DeletionPolicy: 'RetainExceptOnCreate',
      Properties: Match.objectLike({ DeletionProtection: 'INACTIVE' }),
    });
  });
});

describe('what prod keeps (issue 38)', () => {
  const prod = synth({ stage: 'prod', siteUrl: 'https://calendar.example.org' });
  const policies = (s: Synth, type: string) =>
    Object.entries(s.resources(type)).map(([id, r]) => ({
      id,
      policy: `${r.DeletionPolicy} ${r.UpdateReplacePolicy}`,
    }));
  const stateful = [
    'AWS::DynamoDB::Table',
    'AWS::Cognito::UserPool',
    'AWS::Logs::LogGroup',
    'AWS::S3::Bucket',
  ];

  it('keeps the table, the user pool, every log group and bucket, but not an orphan of a first create that rolled back', () => {
    for (const type of stateful) {
      const found = policies(prod, type);
      expect(found.length, type).toBeGreaterThan(0);
      for (const { id, policy } of found) expect(policy, id).toBe('RetainExceptOnCreate Retain');
    }
  });

  it('retains nothing with a plain Retain, in any template', () => {
    const plain = prod.templates.flatMap((t) =>
      Object.entries(t.template.toJSON().Resources as Record<string, { DeletionPolicy?: string }>)
        .filter(([, r]) => r.DeletionPolicy === 'Retain')
        .map(([id]) => `${t.name}/${id}`),
    );
    expect(plain).toEqual([]);
  });

  it('removes them all in dev', () => {
    for (const type of stateful)
      for (const { id, policy } of policies(dev, type)) expect(policy, id).toBe('Delete Delete');
  });
});

describe('authentication', () => {
  it('creates a Cognito user pool with one group per role by default', () => {
    dev.parent.resourceCountIs('AWS::Cognito::UserPool', 1);
    dev.parent.resourceCountIs('AWS::Cognito::UserPoolClient', 1);
    const groups = Object.values(dev.parent.findResources('AWS::Cognito::UserPoolGroup'));
    expect(groups.map((g) => g.Properties.GroupName).sort()).toEqual([
      'administrator',
      'author',
      'contributor',
      'editor',
      'subscriber',
    ]);
    expect(Object.keys(dev.parent.findOutputs('*'))).toEqual(
      expect.arrayContaining(['ApiUrl', 'TableName', 'UserPoolId', 'UserPoolClientId']),
    );
  });

  it("gives the scripts' client SRP sign-in and no OAuth flow or callback (issue 25)", () => {
    const [client] = Object.values(dev.parent.findResources('AWS::Cognito::UserPoolClient'));
    expect(client!.Properties.ExplicitAuthFlows).toEqual(['ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH']);
    expect(client!.Properties.AllowedOAuthFlows).toBeUndefined();
    expect(client!.Properties.AllowedOAuthFlowsUserPoolClient).toBe(false);
    expect(client!.Properties.CallbackURLs).toBeUndefined();
  });

  it("trusts its own pool's tokens by their issuer, naming no client: no function waits for the page's", () => {
    for (const name of allFunctionNames) {
      const variables = dev.fn(name).resource.Properties.Environment.Variables;
      expect(variables, name).not.toHaveProperty('AUTH_AUDIENCE');
      expect(JSON.stringify(variables.AUTH_ISSUER), name).toMatch(/UserPool.*ProviderURL/);
    }
  });

  it('trusts an external OIDC issuer instead when one is configured', () => {
    const oidc = synth({
      oidcIssuer: 'https://id.example.org/',
      oidcJwksUrl: 'https://id.example.org/jwks',
      oidcAudience: 'cal-api',
    });
    expect(Object.keys(oidc.resources('AWS::Cognito::UserPool'))).toEqual([]);
    expect(Object.keys(oidc.parent.findOutputs('*'))).not.toContain('UserPoolId');
    for (const { template } of apiTemplates(oidc))
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
    expect(Object.keys(dev.resources('AWS::ApiGatewayV2::Authorizer'))).toEqual([]);
  });
});

describe('alarms', () => {
  const alarms = () => Object.values(dev.resources('AWS::CloudWatch::Alarm'));
  /** `<template path>/<function logical ID>` of each function, to match what an alarm's metric names. */
  const functionKeys = allFunctionNames
    .map((name) => {
      const { template, logicalId } = dev.fn(name);
      return `${dev.templates.find((t) => t.template === template)!.name}/${logicalId}`;
    })
    .sort();
  /** Each alarm with the path of its template. */
  const alarmsWithTemplate = () =>
    dev.templates.flatMap((t) =>
      Object.values(t.template.findResources('AWS::CloudWatch::Alarm')).map((a) => ({ t: t.name, a })),
    );
  /** The metrics (namespace, name, dimension names) a metric-math alarm reads. */
  const mathMetrics = (alarm: any) =>
    (alarm.Properties.Metrics as any[])
      .filter((m) => m.MetricStat)
      .map((m) => m.MetricStat.Metric as { Namespace: string; MetricName: string; Dimensions: any[] });
  /** Each family's throttles are watched ten functions an alarm; the $default, pages', job's and engine's too. */
  const throttleAlarms =
    [...dev.stack.families.values()].reduce((n, f) => n + Math.ceil(f.functions.size / 10), 0) + 3 + 1;
  /**
   * The webhook engine's own: queue age, dead letters, dispatch failures, the change bus pipe's
   * failures, dispatcher lag (issue 28), the pipe's failed executions (issue 38).
   */
  const engineAlarms = 6;

  it('watches API 5xx, every function and table throttling', () => {
    expect(alarms()).toHaveLength(1 + 1 + allFunctionNames.length + throttleAlarms + 1 + engineAlarms);
    dev.parent.hasResourceProperties('AWS::CloudWatch::Alarm', {
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
    const watched = alarmsWithTemplate()
      .filter(({ a }) => a.Properties.Namespace === 'AWS/Lambda' && a.Properties.MetricName === 'Errors')
      .map(({ t, a }) => `${t}/${a.Properties.Dimensions[0].Value.Ref}`);

    expect(watched.sort()).toEqual(functionKeys);
  });

  it('watches the throttles of every function, ten functions an alarm', () => {
    const throttled = alarmsWithTemplate()
      .filter(({ a }) => a.Properties.Metrics)
      .flatMap(({ t, a }) => mathMetrics(a).map((m) => ({ t, m })))
      .filter(({ m }) => m.Namespace === 'AWS/Lambda');

    expect(throttled.every(({ m }) => m.MetricName === 'Throttles')).toBe(true);
    expect(throttled.map(({ t, m }) => `${t}/${m.Dimensions[0].Value.Ref}`).sort()).toEqual(functionKeys);
  });

  it('reads a metric without data as 0 in every sum, so that one quiet function or operation cannot hide the others (issue 25)', () => {
    const sums = alarms()
      .filter((a) => a.Properties.Metrics)
      .filter((a) => !/IF\(requests > 0/.test(JSON.stringify(a.Properties.Metrics)));
    expect(sums.length).toBe(throttleAlarms + 1);
    for (const a of sums) {
      const metrics = a.Properties.Metrics as Array<{
        Id: string;
        Expression?: string;
        MetricStat?: unknown;
      }>;
      const [expression] = metrics.filter((m) => m.Expression).map((m) => m.Expression!);
      const ids = metrics.filter((m) => m.MetricStat).map((m) => m.Id);
      expect(expression).toBe(ids.map((id) => `FILL(${id}, 0)`).join(' + '));
    }
  });

  it('watches DynamoDB throttling of the table', () => {
    const table = Object.keys(dev.parent.findResources('AWS::DynamoDB::Table'))[0]!;
    const throttles = alarms()
      .filter((a) => a.Properties.Metrics)
      .flatMap(mathMetrics)
      .filter((m) => m.Namespace === 'AWS/DynamoDB');

    expect(throttles.length).toBeGreaterThan(0);
    expect(throttles.every((m) => m.MetricName === 'ThrottledRequests')).toBe(true);
    expect(throttles.every((m) => m.Dimensions.some((d: any) => d.Value.Ref === table))).toBe(true);
    // Every operation the code issues, batch writes included (issue 38); ten at most in one alarm.
    const operationsWatched = throttles
      .map((m) => m.Dimensions.find((d: any) => d.Name === 'Operation')?.Value)
      .sort();
    expect(operationsWatched).toEqual(
      [
        'BatchGetItem',
        'BatchWriteItem',
        'DeleteItem',
        'GetItem',
        'PutItem',
        'Query',
        'TransactGetItems',
        'TransactWriteItems',
        'UpdateItem',
      ].sort(),
    );
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
        siteUrl: 'https://calendar.example.org',
        oidcIssuer: 'https://issuer.example.com',
        oidcJwksUrl: 'https://issuer.example.com/jwks.json',
      }),
    ).toEqual([]);
  });
});
