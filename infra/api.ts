import { ArnFormat, Duration, Stack, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { CorsHttpMethod, HttpApi, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Grant } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import {
  CORS_ALLOW_HEADERS,
  CORS_EXPOSE_HEADERS,
  CORS_MAX_AGE_SECONDS,
  NAMESPACE_PATH,
  NO_ROUTE_HANDLER,
} from '../shared/config';
import type { Operation } from '../shared/contracts/types';
import { noRouteTimeoutSeconds } from '../shared/contracts/function-limits';
import { CORS_ALLOW_ORIGINS_ENV } from '../shared/http/cors';
import { OPERATION_FUNCTION_PREFIX_ENV } from '../shared/http/dispatch';
import { dataFunction } from './function-defaults';
import { removalPolicy } from './removal';

export { NAMESPACE_PATH };

/** Why no route has an API Gateway authorizer (cdk-nag AwsSolutions-APIG4), here and in the families. */
export const NO_AUTHORIZER_REASON =
  'Reads are public and writes share their routes: each function verifies the bearer token itself, ' +
  "so that authentication comes before validation, with the service's own error codes (decisions §3).";

export interface EventsApiProps {
  repoRoot: string;
  /** The operations the `$default` function may hand a slashed path to (their functions: infra/family.ts). */
  operations: readonly Operation[];
  /** `<prefix><operationId>` is the name of an operation's function. */
  functionPrefix: string;
  table: ITable;
  environment: Record<string, string>;
  corsAllowOrigins: string[];
  throttleRate: number;
  throttleBurst: number;
  logRetention: RetentionDays;
  retainLogs: boolean;
}

/**
 * The HTTP API, its stage and `$default` route (the rest for the unmatched). The operations' routes and
 * functions are added by their families' nested stacks (infra/family.ts).
 */
export class EventsApi extends Construct {
  readonly httpApi: HttpApi;
  readonly stage: HttpStage;
  /** The functions of this construct (the fallback, `noRoute`), keyed by name. */
  readonly functions = new Map<string, LambdaFunction>();

  constructor(scope: Construct, id: string, props: EventsApiProps) {
    super(scope, id);
    // The fallback matches paths against the contracts and hands slashed ones to their operation's
    // function (below), and answers CORS preflights; it never writes data.
    const noRoute = dataFunction(this, 'NoRoute', {
      repoRoot: props.repoRoot,
      handler: NO_ROUTE_HANDLER,
      functionName: `${props.functionPrefix}noRoute`,
      environment: {
        ...props.environment,
        // No route key carries a trailing slash, so `$default` answers `/events/` by invoking the
        // function of `/events` (shared/http/dispatch.ts), which it names by this prefix.
        [OPERATION_FUNCTION_PREFIX_ENV]: props.functionPrefix,
        [CORS_ALLOW_ORIGINS_ENV]: props.corsAllowOrigins.join(','),
      },
      logRetention: props.logRetention,
      retainLogs: props.retainLogs,
      table: props.table,
      readOnly: true,
      // It waits for the function it forwards a slashed path to: the longest of theirs, computed.
      timeout: Duration.seconds(noRouteTimeoutSeconds()),
    });
    this.functions.set('noRoute', noRoute);
    this.httpApi = new HttpApi(this, 'HttpApi', {
      createDefaultStage: false,
      defaultIntegration: new HttpLambdaIntegration('NoRoute', noRoute),
      corsPreflight: {
        allowOrigins: props.corsAllowOrigins,
        allowHeaders: [...CORS_ALLOW_HEADERS],
        allowMethods: [CorsHttpMethod.ANY],
        exposeHeaders: [...CORS_EXPOSE_HEADERS],
        maxAge: Duration.seconds(CORS_MAX_AGE_SECONDS),
      },
    });
    Validations.of(this.httpApi).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason: NO_AUTHORIZER_REASON,
    });

    // One statement on the operations' functions (unqualified ARNs, what is invoked), built from their
    // fixed names: no reference to the families' stacks, so this function does not wait for them.
    const stack = Stack.of(this);
    Grant.addToPrincipal({
      grantee: noRoute,
      actions: ['lambda:InvokeFunction'],
      resourceArns: props.operations.map((op) =>
        stack.formatArn({
          service: 'lambda',
          resource: 'function',
          resourceName: `${props.functionPrefix}${op.operationId}`,
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        }),
      ),
    });

    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.logRetention,
      removalPolicy: removalPolicy(props.retainLogs),
    });
    this.stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      autoDeploy: true,
      throttle: { rateLimit: props.throttleRate, burstLimit: props.throttleBurst },
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            method: '$context.httpMethod',
            path: '$context.path',
            routeKey: '$context.routeKey',
            status: '$context.status',
            latency: '$context.responseLatency',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });
  }

  /** `https://<id>.execute-api.<region>.amazonaws.com/cal/events/v1/` */
  get rootUrl(): string {
    return `${this.httpApi.apiEndpoint}${NAMESPACE_PATH}/`;
  }
}
