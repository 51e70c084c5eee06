import { type CfnResource, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  CorsHttpMethod,
  HttpApi,
  HttpMethod,
  HttpStage,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Grant } from 'aws-cdk-lib/aws-iam';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { CORS_ALLOW_HEADERS, CORS_EXPOSE_HEADERS, NAMESPACE_PATH, NO_ROUTE_HANDLER } from '../shared/config';
import type { Operation } from '../shared/contracts/types';
import { OPERATION_FUNCTIONS_ENV } from '../shared/http/dispatch';
import { ApiFunction } from './function-defaults';

export { NAMESPACE_PATH };

const pascal = (s: string) => s[0]!.toUpperCase() + s.slice(1);

export interface EventsApiProps {
  repoRoot: string;
  operations: readonly Operation[];
  table: ITable;
  environment: Record<string, string>;
  corsAllowOrigins: string[];
  throttleRate: number;
  throttleBurst: number;
  logRetention: RetentionDays;
  retainLogs: boolean;
}

/** The HTTP API: one route per (operation, method), one function per operation, `$default` for the rest. */
export class EventsApi extends Construct {
  readonly httpApi: HttpApi;
  readonly stage: HttpStage;
  /** Every function, keyed by operationId (`noRoute` for the fallback). */
  readonly functions = new Map<string, NodejsFunction>();

  constructor(scope: Construct, id: string, props: EventsApiProps) {
    super(scope, id);
    const tableId = Stack.of(this).getLogicalId(props.table.node.defaultChild as CfnResource);
    const makeFunction = (name: string, handler: string, readOnly: boolean) => {
      const construct = new ApiFunction(this, pascal(name), {
        repoRoot: props.repoRoot,
        handler,
        environment: props.environment,
        logRetention: props.logRetention,
        retainLogs: props.retainLogs,
      });
      const { fn } = construct;
      if (readOnly) props.table.grantReadData(fn);
      else props.table.grantReadWriteData(fn);
      Validations.of(construct).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${tableId}.Arn>/index/*]`,
        reason: "The table's grants cover its own global secondary indexes, which the queries read.",
      });
      this.functions.set(name, fn);
      return fn;
    };

    // The fallback matches paths against the contracts and hands slashed ones to their operation's
    // function (below); it never reads data.
    const noRoute = makeFunction('noRoute', NO_ROUTE_HANDLER, true);
    this.httpApi = new HttpApi(this, 'HttpApi', {
      createDefaultStage: false,
      defaultIntegration: new HttpLambdaIntegration('NoRoute', noRoute),
      corsPreflight: {
        allowOrigins: props.corsAllowOrigins,
        allowHeaders: [...CORS_ALLOW_HEADERS],
        allowMethods: [CorsHttpMethod.ANY],
        exposeHeaders: [...CORS_EXPOSE_HEADERS],
      },
    });
    Validations.of(this.httpApi).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'Reads are public and writes share their routes: each function verifies the bearer token itself, ' +
        "so that authentication comes before validation, with the service's own error codes (decisions §3).",
    });

    for (const op of props.operations) {
      const fn = makeFunction(op.operationId, op.handler, op.readOnly);
      this.httpApi.addRoutes({
        path: `${NAMESPACE_PATH}${op.path}`,
        methods: op.methods.map((m) => HttpMethod[m]),
        integration: new HttpLambdaIntegration(`${pascal(op.operationId)}Integration`, fn),
      });
    }

    // No route key carries a trailing slash, so `$default` answers `/events/` by invoking the function
    // of `/events` (shared/http/dispatch.ts): it learns their names here and may invoke those only.
    const targets = props.operations.map(
      (op) => [op.operationId, this.functions.get(op.operationId)!] as const,
    );
    noRoute.addEnvironment(
      OPERATION_FUNCTIONS_ENV,
      Stack.of(this).toJsonString(Object.fromEntries(targets.map(([id, fn]) => [id, fn.functionName]))),
    );
    // One statement on the unqualified ARNs (what is invoked), rather than one per function.
    Grant.addToPrincipal({
      grantee: noRoute,
      actions: ['lambda:InvokeFunction'],
      resourceArns: targets.map(([, fn]) => fn.functionArn),
    });

    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.logRetention,
      removalPolicy: props.retainLogs ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
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
