import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { CORS_ALLOW_HEADERS, CORS_EXPOSE_HEADERS, CORS_MAX_AGE_SECONDS, requireEnv } from '../config';

/** Set by the stack on the `$default` function: the origins allowed cross-origin, comma-separated. */
export const CORS_ALLOW_ORIGINS_ENV = 'CORS_ALLOW_ORIGINS';

/** Every method a route of the API takes, and OPTIONS (the gateway's CORS allows them all). */
export const CORS_ALLOW_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** The configured origins; `*` (any) outside Lambda when none is set, as the local gateway allows. */
export const allowedOriginsFromEnv = (): string[] =>
  requireEnv(CORS_ALLOW_ORIGINS_ENV, '*')
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '');

/**
 * The answer to a CORS preflight (any OPTIONS request, on any path). API Gateway's `$default` route
 * takes every method, OPTIONS included, so preflights reach the `$default` function instead of the
 * gateway's own CORS answer; the function answers them with the headers the gateway is configured with
 * (infra/api.ts), which the gateway sets again on the way out. An origin not allowed gets no
 * Access-Control-Allow-Origin, which a browser takes as a refusal.
 */
export function preflight(
  event: APIGatewayProxyEventV2,
  allowOrigins: readonly string[],
): APIGatewayProxyStructuredResultV2 {
  const origin = event.headers?.origin;
  const allowed = allowOrigins.includes('*')
    ? '*'
    : origin !== undefined && allowOrigins.includes(origin)
      ? origin
      : undefined;
  return {
    statusCode: 204,
    headers: {
      ...(allowed ? { 'Access-Control-Allow-Origin': allowed } : {}),
      ...(allowed === '*' ? {} : { Vary: 'Origin' }),
      'Access-Control-Allow-Methods': CORS_ALLOW_METHODS.join(', '),
      'Access-Control-Allow-Headers': CORS_ALLOW_HEADERS.join(', '),
      'Access-Control-Expose-Headers': CORS_EXPOSE_HEADERS.join(', '),
      'Access-Control-Max-Age': String(CORS_MAX_AGE_SECONDS),
    },
    body: '',
  };
}
