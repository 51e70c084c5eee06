/** Typed errors: thrown anywhere, turned into the error envelope by the one error middleware. */

export type ErrorData = { status: number } & Record<string, unknown>;

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

  toBody(): { code: string; message: string; data: ErrorData } {
    return { code: this.code, message: this.message, data: { status: this.status, ...this.extra } };
  }
}

export interface ParamProblem {
  code: string;
  message: string;
}

export const missingParams = (names: string[]) =>
  new ApiError(400, 'rest_missing_callback_param', `Missing parameter(s): ${names.join(', ')}`, {
    params: names,
  });

/** 400 naming every bad parameter with a reason a person can act on. */
export const invalidParams = (problems: Record<string, ParamProblem>) => {
  const names = Object.keys(problems);
  const params: Record<string, string> = {};
  for (const name of names) params[name] = problems[name]!.message;
  return new ApiError(400, 'rest_invalid_param', `Invalid parameter(s): ${names.join(', ')}`, {
    params,
    details: problems,
  });
};

export const invalidParam = (name: string, message: string, code = 'rest_invalid_param') =>
  invalidParams({ [name]: { code, message } });

export const noRoute = () =>
  new ApiError(404, 'rest_no_route', 'No route was found matching the URL and request method.');

export const methodNotAllowed = (allow: string[]) =>
  new ApiError(
    405,
    'rest_no_route',
    'No route was found matching the URL and request method.',
    {},
    {
      Allow: allow.join(', '),
    },
  );

export const unauthenticated = () =>
  new ApiError(401, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
export const forbidden = () => new ApiError(403, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
export const invalidToken = (why: string) =>
  new ApiError(401, 'rest_invalid_token', `The bearer token is not valid: ${why}.`);

export type ResourceType = 'event' | 'venue' | 'organizer' | 'category' | 'tag';
const label = (type: ResourceType) => type[0]!.toUpperCase() + type.slice(1);

export const notFound = (type: ResourceType, id: number) =>
  new ApiError(404, `rest-${type}-not-found`, `${label(type)} with ID ${id} does not exist.`);

export const slugNotFound = (type: ResourceType, slug: string) =>
  new ApiError(404, `rest-${type}-not-found`, `${label(type)} with slug "${slug}" does not exist.`);

export const archivePageNotFound = (type: ResourceType) =>
  new ApiError(404, `${type}-archive-page-not-found`, `The requested ${type} archive page does not exist`);

export const invalidJson = () => new ApiError(400, 'rest_invalid_json', 'Invalid JSON body passed.');
export const payloadTooLarge = (limit: number) =>
  new ApiError(413, 'rest_payload_too_large', `The request body is larger than ${limit} bytes.`);
export const unsupportedMediaType = (type: string) =>
  new ApiError(
    415,
    'rest_unsupported_media_type',
    `Content type "${type}" is not supported: send application/json or application/x-www-form-urlencoded.`,
  );

export const termExists = (termId: number) =>
  new ApiError(400, 'term_exists', 'A term with the name provided already exists in this taxonomy.', {
    term_id: termId,
  });

export const serviceUnavailable = () =>
  new ApiError(
    503,
    'rest_service_unavailable',
    'The data store is busy; retry shortly.',
    {},
    { 'Retry-After': '1' },
  );

export const conflict = (what: string) =>
  new ApiError(409, 'rest_conflict', `The ${what} was changed by another request at the same time; retry.`);
