import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { ApiError, asApiError, serviceUnavailable, timedOut } from './errors';
import { entityTag } from './etag';
import { logger } from './logger';
import { type ApiUrls, urlsOf } from './urls';

/** A successful answer: its body is typed by the operation's response schema (see createHandler). */
export interface Reply<B = unknown> {
  status?: number;
  body: B;
  headers?: Record<string, string>;
}

const JSON_TYPE = 'application/json; charset=UTF-8';

/** Headers every response carries (decisions §1). */
export const apiHeaders = (urls: ApiUrls) => ({
  'Content-Type': JSON_TYPE,
  'X-Cal-API-Version': 'v1',
  'X-Cal-API-Root': `${urls.root}/`,
});

export function jsonResponse(reply: Reply, urls: ApiUrls): APIGatewayProxyStructuredResultV2 {
  // A string body under a Content-Type of the reply's own (text/calendar) is sent as it is.
  const raw = typeof reply.body === 'string' && reply.headers?.['Content-Type'] !== undefined;
  const body = raw ? (reply.body as string) : JSON.stringify(reply.body);
  const status = reply.status ?? 200;
  // Every JSON success carries an ETag (etag.ts); replies that bring their own keep it.
  const headers: Record<string, string> = { ...apiHeaders(urls), ...reply.headers };
  if (!raw && status < 300 && !headers.ETag) headers.ETag = entityTag(reply.body, body);
  return { statusCode: status, headers, body };
}

// Errors the SDK raises once its own retries are spent on a busy or unavailable table.
const RETRYABLE = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'ServiceUnavailable',
  'InternalServerError',
  'TransactionInProgressException',
]);

// A cancelled transaction reports throttling and contention per item, and the SDK does not retry it.
const RETRYABLE_REASONS = new Set([
  'ThrottlingError',
  'ProvisionedThroughputExceeded',
  'RequestLimitExceeded',
  'TransactionConflict',
]);

function isRetryable(error: unknown): boolean {
  type SdkError = { name?: string; CancellationReasons?: Array<{ Code?: string } | undefined> };
  const e = error as SdkError | undefined;
  if (RETRYABLE.has(e?.name ?? '')) return true;
  const reasons = e?.name === 'TransactionCanceledException' ? (e.CancellationReasons ?? []) : [];
  return reasons.some((r) => RETRYABLE_REASONS.has(r?.Code ?? ''));
}

/**
 * The one place where anything thrown becomes the error envelope; internals only reach the log. The
 * line is written before the answer is returned: Lambda may freeze the process as soon as it is out.
 */
export async function failureResponse(
  error: unknown,
  event: APIGatewayProxyEventV2,
  requestId = event.requestContext?.requestId ?? '',
): Promise<APIGatewayProxyStructuredResultV2> {
  let api = asApiError(error);
  if (!api && (error as { name?: string } | undefined)?.name === 'TimeoutError') {
    await logger.warn('function timeout', { error: error as Error });
    api = timedOut();
  } else if (!api && isRetryable(error)) {
    await logger.warn('data store unavailable', { error: error as Error });
    api = serviceUnavailable();
  } else if (!api) {
    await logger.error('unexpected failure', { error: error as Error });
    api = new ApiError(500, 'rest_internal_error', 'An unexpected error occurred.', {
      request_id: requestId,
    });
  }
  return errorResponse(api, event);
}

/**
 * The envelope of an error the API defines: nothing to log, so it is answered at once (the 404 / 405
 * of no-route.ts, the local gateway's 414). Anything else goes through failureResponse.
 */
export function errorResponse(
  api: ApiError,
  event: APIGatewayProxyEventV2,
): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: api.status,
    headers: { ...apiHeaders(urlsOf(event)), ...api.headers },
    body: JSON.stringify(api.toBody()),
  };
}
