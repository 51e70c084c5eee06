import { DomainError, type ErrorKind } from '../domain/errors';

/**
 * The one place that knows HTTP status codes: the status of each kind of domain error, and the
 * errors only the HTTP layer raises (routing, transport, tokens, a busy data store).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  toBody(): { code: string; message: string; data: { status: number } & Record<string, unknown> } {
    return { code: this.code, message: this.message, data: { status: this.status, ...this.extra } };
  }
}

const STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  gone: 410,
  'precondition-failed': 412,
  unprocessable: 422,
  'too-many': 429,
};

export const statusOf = (kind: ErrorKind) => STATUS[kind];

/** The HTTP form of anything the lower layers threw; undefined for errors that are not ours. */
export function asApiError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof DomainError) {
    // A rate limit says when to come back, in the header clients and proxies read (RFC 9110 §10.2.3).
    const retry = error.kind === 'too-many' ? error.data.retry_after : undefined;
    const headers: Record<string, string> = typeof retry === 'number' ? { 'Retry-After': String(retry) } : {};
    return new ApiError(STATUS[error.kind], error.code, error.message, error.data, headers);
  }
  return undefined;
}

export const noRoute = () =>
  new ApiError(404, 'rest_no_route', 'No route was found matching the URL and request method.');

export const methodNotAllowed = (allow: string[]) =>
  new ApiError(
    405,
    'rest_no_route',
    'No route was found matching the URL and request method.',
    {},
    { Allow: allow.join(', ') },
  );

export const unauthenticated = () =>
  new ApiError(401, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
export const invalidToken = (why: string) =>
  new ApiError(401, 'rest_invalid_token', `The bearer token is not valid: ${why}.`);

export const invalidJson = () => new ApiError(400, 'rest_invalid_json', 'Invalid JSON body passed.');
export const payloadTooLarge = (limit: number) =>
  new ApiError(413, 'rest_payload_too_large', `The request body is larger than ${limit} bytes.`);
export const unsupportedMediaType = (type: string) =>
  new ApiError(
    415,
    'rest_unsupported_media_type',
    `Content type "${type}" is not supported: send application/json or application/x-www-form-urlencoded.`,
  );

export const unsupportedCharset = (charset: string) =>
  new ApiError(
    415,
    'rest_unsupported_charset',
    `Charset "${charset}" is not supported: send UTF-8 (the default), ISO-8859-1, windows-1252 or another charset of the WHATWG Encoding Standard.`,
  );

export const serviceUnavailable = () =>
  new ApiError(
    503,
    'rest_service_unavailable',
    'The data store is busy; retry shortly.',
    {},
    { 'Retry-After': '1' },
  );

/**
 * The function ran out of time. A write may or may not have been applied (never a 500, which would
 * claim that nothing happened). A create retried with the same Idempotency-Key is done at most once
 * (repositories/creations.ts), and an update retried with If-Match cannot apply twice.
 */
export const timedOut = () =>
  new ApiError(
    503,
    'rest_timeout',
    'The request took too long and was stopped; the write may have been applied. Retrying with the same ' +
      'Idempotency-Key is safe: a create is never done twice, and the retry answers with its result. ' +
      'Without a key, read the record before retrying (an update sent with If-Match cannot apply twice).',
    {},
    { 'Retry-After': '1' },
  );

/** An Idempotency-Key header that is empty, too long or not printable ASCII. */
export const invalidIdempotencyKey = () =>
  new ApiError(
    400,
    'rest_invalid_idempotency_key',
    'Idempotency-Key must be 1 to 255 printable ASCII characters (a UUID, for example).',
  );

/** Another request with the same Idempotency-Key is still running: its answer comes once it ends. */
export const idempotencyInProgress = () =>
  new ApiError(
    409,
    'rest_idempotency_in_progress',
    'A request with this Idempotency-Key is still in progress; retry after Retry-After seconds to get its answer.',
    {},
    { 'Retry-After': '1' },
  );
