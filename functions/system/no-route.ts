import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { matchRoute, splitNamespace } from '../../shared/contracts';
import {
  dispatch,
  functionPrefixFromEnv,
  type Invoker,
  lambdaInvoker,
  unslashedRoute,
} from '../../shared/http/dispatch';
import { allowedOriginsFromEnv, preflight } from '../../shared/http/cors';
import { errorResponse } from '../../shared/http/respond';
import { urlsOf } from '../../shared/http/urls';
import { methodNotAllowed, noRoute } from '../../shared/http/errors';

let deployed: Invoker | undefined;

/** In AWS: Lambda Invoke of the operation's own function, named by the stack (built on first use). */
let invoker: Invoker = (operation, event, context) =>
  (deployed ??= lambdaInvoker(functionPrefixFromEnv()))(operation, event, context);

/** Replaces how operations are run: the local gateway runs their modules in its own process. */
export function setInvoker(next: Invoker): void {
  invoker = next;
}

/**
 * 404 for an unknown path, 405 with `Allow` for a known path with another method (slash or not). No
 * middleware: nothing here needs a token or a body, so the function carries only routing.
 */
function answerNoRoute(event: APIGatewayProxyEventV2): APIGatewayProxyStructuredResultV2 {
  const urls = urlsOf(event);
  const { method, rawPath } = urls;
  const split = splitNamespace(rawPath);
  const allow = split ? matchRoute(method, urls.path, split.namespace).allow : [];
  const error = allow.length > 0 ? methodNotAllowed([...new Set(allow)]) : noRoute();
  return errorResponse(error, event);
}

/**
 * The gateway's `$default` route. A trailing slash is ignored (decisions §1) but no route key can carry
 * one: a path that matches an operation once its slash is removed is answered by that operation's
 * function, exactly as without the slash. An OPTIONS request is a CORS preflight, answered 204 with
 * the configured CORS headers. Everything else is 404 / 405.
 */
export async function handler(
  event: APIGatewayProxyEventV2,
  context: Context,
): Promise<APIGatewayProxyStructuredResultV2> {
  // A CORS preflight reaches `$default` (which takes OPTIONS too) whatever its path.
  if (event.requestContext?.http?.method === 'OPTIONS') return preflight(event, allowedOriginsFromEnv());
  const match = unslashedRoute(event);
  if (match) return dispatch(invoker, match, event, context);
  return answerNoRoute(event);
}
