import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { requireEnv } from '../config';
import { matchRoute, routeOf, splitNamespace, type RouteMatch } from '../contracts';
import type { Operation } from '../contracts/types';
import { ApiError } from './errors';
import { logger } from './logger';
import { errorResponse } from './respond';

/**
 * A trailing slash is ignored (decisions §1), but an HTTP API cannot have a slashed route key: such a
 * request reaches the `$default` route, whose function hands it to the operation's own function with
 * the event API Gateway would have built for the path without the slash, and returns its answer as is.
 */

/**
 * Set by the CDK stack on the `$default` function: every operation's function is named
 * `<prefix><operationId>` (infra/family.ts), so one short setting serves however many operations.
 */
export const OPERATION_FUNCTION_PREFIX_ENV = 'OPERATION_FUNCTION_PREFIX';

/** Runs an operation's function on an event and returns its result unchanged. */
export type Invoker = (
  operation: Operation,
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

/** The route a path ending in `/` reaches once the slash is removed; undefined when none takes the method. */
export function unslashedRoute(event: APIGatewayProxyEventV2): RouteMatch | undefined {
  const rawPath = event.rawPath ?? '';
  if (!rawPath.endsWith('/')) return undefined;
  const split = splitNamespace(rawPath.slice(0, -1));
  if (!split) return undefined;
  const method = event.requestContext?.http?.method ?? 'GET';
  return matchRoute(method, split.below, split.namespace).match;
}

/** The event API Gateway builds for the same request without the trailing slash, routed to `match`. */
export function unslashedEvent(event: APIGatewayProxyEventV2, match: RouteMatch): APIGatewayProxyEventV2 {
  const { http } = event.requestContext;
  const routeKey = `${http.method} ${routeOf(match.operation)}`;
  const { pathParameters: _slashed, ...rest } = event;
  // API Gateway leaves `pathParameters` out for a route without parameters.
  const pathParameters = Object.keys(match.pathParameters).length > 0 ? match.pathParameters : undefined;
  return {
    ...rest,
    routeKey,
    rawPath: event.rawPath.replace(/\/$/, ''),
    ...(pathParameters ? { pathParameters } : {}),
    requestContext: {
      ...event.requestContext,
      routeKey,
      http: { ...http, path: http.path.replace(/\/$/, '') },
    },
  };
}

/**
 * Sends the unslashed event to the operation through `invoker` and returns its result unchanged.
 * A failure of the dispatch itself becomes the error envelope: 503 with `Retry-After` when the
 * function is throttled, else 500 `rest_internal_error` with the request id (details only in the log).
 */
export async function dispatch(
  invoker: Invoker,
  match: RouteMatch,
  event: APIGatewayProxyEventV2,
  context: Context,
): Promise<APIGatewayProxyStructuredResultV2> {
  const requestId = context?.awsRequestId ?? event.requestContext?.requestId ?? '';
  logger.appendKeys({ requestId: event.requestContext?.requestId, operation: match.operation.operationId });
  try {
    return await invoker(match.operation, unslashedEvent(event, match), context);
  } catch (error) {
    return errorResponse(await dispatchError(error, requestId), event);
  }
}

// What Lambda's Invoke answers when the function or the account is out of concurrency.
const THROTTLED = new Set(['TooManyRequestsException', 'ThrottlingException']);

/** The error a failed dispatch answers, its log line written first (Lambda may freeze after the answer). */
async function dispatchError(error: unknown, requestId: string): Promise<ApiError> {
  const e = error as { name?: string; retryAfterSeconds?: string } | undefined;
  if (THROTTLED.has(e?.name ?? '')) {
    await logger.warn('operation function throttled', { error: error as Error });
    const retryAfter = /^\d+$/.test(e?.retryAfterSeconds ?? '') ? e!.retryAfterSeconds! : '1';
    return new ApiError(
      503,
      'rest_service_unavailable',
      'The service is busy; retry shortly.',
      {},
      { 'Retry-After': retryAfter },
    );
  }
  await logger.error('dispatch to the operation function failed', { error: error as Error });
  return new ApiError(500, 'rest_internal_error', 'An unexpected error occurred.', {
    request_id: requestId,
  });
}

/** The function reported an error instead of a response (crash, timeout, out of memory). */
export class FunctionError extends Error {
  override name = 'FunctionError';
  constructor(functionName: string, kind: string, payload: string) {
    super(`${functionName} failed (${kind}): ${payload.slice(0, 1000)}`);
  }
}

const SAFETY_MARGIN_MS = 500;

/** The deployed invoker: Lambda Invoke (RequestResponse) of the operation's function, `<prefix><operationId>`. */
export function lambdaInvoker(prefix: string, client: LambdaClient = new LambdaClient({})): Invoker {
  return async (operation, event, context) => {
    const functionName = `${prefix}${operation.operationId}`;
    // Give up before this function's own timeout, so the caller still gets the envelope.
    const remaining = context?.getRemainingTimeInMillis?.();
    const abortSignal =
      remaining === undefined ? undefined : AbortSignal.timeout(Math.max(remaining - SAFETY_MARGIN_MS, 1));
    const out = await client.send(
      new InvokeCommand({
        FunctionName: functionName,
        InvocationType: 'RequestResponse',
        Payload: new TextEncoder().encode(JSON.stringify(event)),
      }),
      { abortSignal },
    );
    const payload = out.Payload ? new TextDecoder().decode(out.Payload) : '';
    if (out.FunctionError) throw new FunctionError(functionName, out.FunctionError, payload);
    return JSON.parse(payload) as APIGatewayProxyStructuredResultV2;
  };
}

/** The prefix of the operations' function names, set by the stack: missing, it is a deployment error. */
export const functionPrefixFromEnv = (): string => requireEnv(OPERATION_FUNCTION_PREFIX_ENV);
