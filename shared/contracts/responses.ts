import type { ResponseSpec } from './types';

const ERROR_TEXT: Record<number, string> = {
  400: 'Missing or invalid parameters (rest_missing_callback_param / rest_invalid_param).',
  401: 'No token on a protected route, or a bad, expired or foreign token.',
  403: 'The caller may not do this, or may not see this record.',
  404: 'No such record, or a page past the end of the list.',
  405: 'The path exists but does not take this method.',
  409: 'The record was changed by another request at the same time, or a request with the same Idempotency-Key is still in progress (then with Retry-After); retry.',
  410: 'The record is already in the trash, or the record this Idempotency-Key created was deleted since.',
  412: 'If-Match names another version of the record than the stored one (rest_precondition_failed): nothing was changed; read it again and resend with its new ETag.',
  413: 'The request body is larger than 1 MiB.',
  415: 'The request body is neither JSON nor form-encoded.',
  422: 'The Idempotency-Key was already used with another request body (rest_idempotency_key_reused).',
  429: 'Too many requests of this kind from this caller (a rate limit); Retry-After says when to try again.',
  500: 'Unexpected failure; the body carries a request_id.',
  503: 'The data store is busy; retry after the Retry-After delay.',
};

/** Error responses of an operation, all in the error envelope. */
export function errors(...statuses: number[]): Record<number, ResponseSpec> {
  const out: Record<number, ResponseSpec> = {};
  for (const s of [...statuses, 500, 503]) out[s] = { description: ERROR_TEXT[s] ?? 'Error.' };
  return out;
}

export const READ_ERRORS = [400, 401] as const;
export const WRITE_ERRORS = [400, 401, 403, 413, 415] as const;
/** Statuses only creates answer: an Idempotency-Key in progress, its record deleted since, or reused. */
export const CREATE_ERRORS = [...WRITE_ERRORS, 409, 410, 422] as const;
/** Updates and deletes: their own statuses, and 412 for an If-Match that no longer matches. */
export const CONDITIONAL_WRITE_ERRORS = [...WRITE_ERRORS, 412] as const;

/** Caching headers of the iCalendar routes, on 200 and on 304 alike. */
export const CALENDAR_HEADERS = {
  ETag: 'Weak entity tag of what the body shows (the events as read, the query, the caller); send it back in If-None-Match.',
  'Cache-Control': 'public, max-age=300 for anonymous callers; private, no-cache with a token.',
  Vary: 'Authorization: a token may widen what is shown.',
} as const;

/** Headers of the iCalendar routes that are absent when they do not apply. */
export const CALENDAR_OPTIONAL_HEADERS = {
  'Last-Modified':
    'The newest modified_utc of the events shown and their venues and organizers; absent when no event is shown.',
} as const;

/** 304 of a JSON GET whose ETag matches If-None-Match: no body (the ETag header is added by /doc). */
export function unchanged(): Record<number, ResponseSpec> {
  return { 304: { description: 'Not modified: the ETag sent in If-None-Match still matches; no body.' } };
}

/** 304 of a conditional GET (If-None-Match, or If-Modified-Since without it): no body. */
export function notModified(): Record<number, ResponseSpec> {
  return {
    304: {
      description: 'Not modified since the ETag or the date the caller sent: no body.',
      headers: CALENDAR_HEADERS,
      optionalHeaders: CALENDAR_OPTIONAL_HEADERS,
    },
  };
}
