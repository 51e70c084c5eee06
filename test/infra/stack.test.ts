import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { type EventsApi, NAMESPACE_PATH } from '../../infra/api';
import { CalEventsStack } from '../../infra/stack';
import { operations } from '../../shared/contracts';
import { TABLE } from '../../shared/db/table';

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
        AllowHeaders: ['Authorization', 'Content-Type'],
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

  it('keeps logs in a log group per function with a retention', () => {
    const groups = dev.template.findResources('AWS::Logs::LogGroup', { Properties: { RetentionInDays: 14 } });
    // one per function plus the access log
    expect(Object.keys(groups)).toHaveLength(operations.length + 2);
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
  it('watches API 5xx, every function and table throttling', () => {
    dev.template.resourceCountIs('AWS::CloudWatch::Alarm', 1 + operations.length + 1 + 1);
    dev.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: '5xx',
      Namespace: 'AWS/ApiGateway',
    });
  });
});
