import { timeoutOf } from '../shared/contracts/function-limits';
import { Duration, NestedStack, Validations } from 'aws-cdk-lib';
import { HttpMethod, HttpRoute, HttpRouteKey, type IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { routeOf } from '../shared/contracts';
import type { Operation } from '../shared/contracts/types';
import { FunctionAlarms } from './alarms';
import { NO_AUTHORIZER_REASON } from './api';
import { dataFunction } from './function-defaults';

export const pascal = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/** The family of an operation: the folder of its handler (`functions/events/get-event` → `events`). */
export const familyOf = (op: Pick<Operation, 'handler'>): string => op.handler.split('/')[1]!;

/** Operations grouped by family, in the contracts' order. */
export function families<T extends Pick<Operation, 'handler'>>(operations: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const op of operations) groups.set(familyOf(op), [...(groups.get(familyOf(op)) ?? []), op]);
  return groups;
}

export interface OperationFamilyProps {
  operations: readonly Operation[];
  repoRoot: string;
  table: ITable;
  httpApi: IHttpApi;
  environment: Record<string, string>;
  /** The fixed name of an operation's function (`<stack name>-<operationId>`). */
  functionName: (operationId: string) => string;
  logRetention: RetentionDays;
  retainLogs: boolean;
}

/**
 * One family of operations (a folder of functions/) in a nested stack of its own: each operation's
 * function, role, log group, integration, routes and alarms. CloudFormation allows 500 resources a
 * template; a family holds about nine an operation, so the service's own template stays the same size
 * however many operations are added, and a family would need some 40 operations to come near 400.
 */
export class OperationFamily extends NestedStack {
  /** The family's functions, keyed by operationId. */
  readonly functions = new Map<string, LambdaFunction>();

  constructor(scope: Construct, id: string, props: OperationFamilyProps) {
    super(scope, id, { description: `Event calendar API: the ${id} operations` });
    for (const op of props.operations) {
      const name = pascal(op.operationId);
      const fn = dataFunction(this, name, {
        repoRoot: props.repoRoot,
        handler: op.handler,
        functionName: props.functionName(op.operationId),
        environment: props.environment,
        logRetention: props.logRetention,
        retainLogs: props.retainLogs,
        table: props.table,
        readOnly: op.readOnly,
        timeout: Duration.seconds(timeoutOf(op)),
      });
      const integration = new HttpLambdaIntegration(`${name}Integration`, fn);
      for (const method of op.methods) {
        new HttpRoute(this, `${name}${pascal(method.toLowerCase())}`, {
          httpApi: props.httpApi,
          routeKey: HttpRouteKey.with(routeOf(op), HttpMethod[method]),
          integration,
        });
      }
      this.functions.set(op.operationId, fn);
    }
    new FunctionAlarms(this, 'Alarms', { functions: this.functions });
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason: NO_AUTHORIZER_REASON,
    });
  }
}
