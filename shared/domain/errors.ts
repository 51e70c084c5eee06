/**
 * The errors the rules, repositories and use cases throw. They say what went wrong (`kind`, a stable
 * `code`, a message a person can act on and machine-readable `data`), never which HTTP status that is:
 * `shared/http/errors.ts` is the one place that maps a kind to a status.
 */
export type ErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'gone'
  | 'precondition-failed'
  | 'unprocessable'
  /** Too many requests of a kind (a rate limit); `data.retry_after` says when to try again, in seconds. */
  | 'too-many';

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export interface ParamProblem {
  code: string;
  message: string;
}

export const missingParams = (names: string[]) =>
  new DomainError('invalid', 'rest_missing_callback_param', `Missing parameter(s): ${names.join(', ')}`, {
    params: names,
  });

/** Names every bad parameter with a reason a person can act on. */
export const invalidParams = (problems: Record<string, ParamProblem>) => {
  const names = Object.keys(problems);
  const params: Record<string, string> = {};
  for (const name of names) params[name] = problems[name]!.message;
  return new DomainError('invalid', 'rest_invalid_param', `Invalid parameter(s): ${names.join(', ')}`, {
    params,
    details: problems,
  });
};

export const invalidParam = (name: string, message: string, code = 'rest_invalid_param') =>
  invalidParams({ [name]: { code, message } });

export const forbidden = () =>
  new DomainError('forbidden', 'rest_forbidden', 'Sorry, you are not allowed to do that.');

export type ResourceType = 'event' | 'venue' | 'organizer' | 'category' | 'tag';
const label = (type: ResourceType) => type[0]!.toUpperCase() + type.slice(1);

export const notFound = (type: ResourceType, id: number) =>
  new DomainError('not-found', `rest-${type}-not-found`, `${label(type)} with ID ${id} does not exist.`);

export const slugNotFound = (type: ResourceType, slug: string) =>
  new DomainError(
    'not-found',
    `rest-${type}-not-found`,
    `${label(type)} with slug "${slug}" does not exist.`,
  );

export const archivePageNotFound = (type: ResourceType) =>
  new DomainError(
    'not-found',
    `${type}-archive-page-not-found`,
    `The requested ${type} archive page does not exist`,
  );

export const termExists = (termId: number) =>
  new DomainError(
    'invalid',
    'term_exists',
    'A term with the name provided already exists in this taxonomy.',
    {
      term_id: termId,
    },
  );

export const conflict = (what: string) =>
  new DomainError(
    'conflict',
    'rest_conflict',
    `The ${what} was changed by another request at the same time; retry.`,
  );

/**
 * A change of an occurrence while an earlier write of its series is still being finished (a journal
 * longer than a request's budget, docs/recurrence.md): nothing was changed, and a repeat goes on.
 */
export const seriesBusy = (seriesId: number) =>
  new DomainError(
    'conflict',
    'rest_series_busy',
    'The series is still being written by an earlier change; nothing was changed: send the request ' +
      'again in a few seconds.',
    { series_id: seriesId },
  );

/**
 * A change of an import while a run of it goes on (a request's, or the re-sync job continuing one that
 * answered 202): nothing was changed; `running_until_utc` says when the run's hold ends at the latest.
 */
export const importRunning = (importId: number, until: number) =>
  new DomainError(
    'conflict',
    'rest_import_running',
    `Import ${importId} is being run; nothing was changed: send the request again when its progress is null (GET /imports/${importId}).`,
    { import_id: importId, running_until_utc: new Date(until).toISOString() },
  );

/** An `If-Match` named another version of the record than the stored one (or none of it). */
export const preconditionFailed = (type: ResourceType) =>
  new DomainError(
    'precondition-failed',
    'rest_precondition_failed',
    `The ${type} was changed since the version named in If-Match; read it again (GET) and resend with its new ETag.`,
  );

/** An Idempotency-Key sent again with another body than the request that first used it. */
export const idempotencyKeyReused = () =>
  new DomainError(
    'unprocessable',
    'rest_idempotency_key_reused',
    'This Idempotency-Key was already used with another request body; use a new key for a new request.',
  );

/** The record an Idempotency-Key created was deleted since: the create is not done again. */
export const createdThenDeleted = (type: ResourceType, id: number) =>
  new DomainError(
    'gone',
    'rest_idempotency_record_gone',
    `This Idempotency-Key created ${type} ${id}, which was deleted since; use a new key to create another.`,
    { id },
  );

export const trashed = (type: ResourceType) =>
  new DomainError('gone', `${type}-is-in-trash`, `The ${type} is already trashed`);

export const noLongerAvailable = (type: ResourceType) =>
  new DomainError('forbidden', `${type}-no-longer-available`, `This ${type} is no longer available`);

export const notAccessible = (type: ResourceType) =>
  new DomainError('forbidden', `${type}-not-accessible`, `The requested ${type} is not accessible`);

/**
 * Runs `fn` for a record given inline in another body (`venue[1]` of an event) and re-labels its
 * invalid-parameter errors as problems of that parameter: `venue[1].website must be an http or https URL.`
 */
export function nested<T>(prefix: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (!(e instanceof DomainError) || e.kind !== 'invalid') throw e;
    const param = prefix.replace(/\[\d+\]$/, '');
    if (e.code === 'rest_missing_callback_param') {
      const names = (e.data.params as string[]).map((n) => `${prefix}.${n}`);
      throw invalidParam(
        param,
        `${names.join(', ')} ${names.length > 1 ? 'are' : 'is'} required.`,
        'rest_missing_property',
      );
    }
    const [field, problem] = Object.entries((e.data.details ?? {}) as Record<string, ParamProblem>)[0] ?? [];
    if (!field || !problem) throw e;
    const message = problem.message.startsWith(field)
      ? `${prefix}.${problem.message}`
      : `${prefix}.${field}: ${problem.message}`;
    throw invalidParam(param, message, problem.code);
  }
}
