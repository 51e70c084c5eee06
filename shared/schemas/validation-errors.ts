import type { ErrorObject } from 'ajv';
import { DomainError, invalidParams, missingParams, type ParamProblem } from '../domain/errors';

const formatNames: Record<string, string> = { uri: 'URL', email: 'e-mail address', 'date-time': 'date-time' };

function describe(err: ErrorObject, name: string): ParamProblem {
  const p = err.params as Record<string, unknown>;
  switch (err.keyword) {
    case 'type':
      return {
        code: 'rest_invalid_type',
        message: `${name} is not of type ${String(p.type).split(',').join(' or ')}.`,
      };
    case 'minimum':
      return { code: 'rest_out_of_bounds', message: `${name} must be greater than or equal to ${p.limit}.` };
    case 'exclusiveMinimum':
      return { code: 'rest_out_of_bounds', message: `${name} must be greater than ${p.limit}.` };
    case 'maximum':
      return { code: 'rest_out_of_bounds', message: `${name} must be less than or equal to ${p.limit}.` };
    case 'minLength':
      return p.limit === 1
        ? { code: 'rest_too_short', message: `${name} must not be empty.` }
        : { code: 'rest_too_short', message: `${name} must be at least ${p.limit} characters long.` };
    case 'maxLength':
      return { code: 'rest_too_long', message: `${name} must be at most ${p.limit} characters long.` };
    case 'maxItems':
      return { code: 'rest_too_many_items', message: `${name} must contain at most ${p.limit} items.` };
    case 'enum':
      return {
        code: 'rest_not_in_enum',
        // Flags allow both `true` and "true": list each spelling once.
        message: `${name} is not one of ${[...new Set((p.allowedValues as unknown[]).map(String))].join(', ')}.`,
      };
    case 'format':
      return {
        code: 'rest_invalid_format',
        message: `${name} is not a valid ${formatNames[String(p.format)] ?? String(p.format)}.`,
      };
    case 'required':
      return { code: 'rest_missing_property', message: `${name}.${p.missingProperty} is required.` };
    // ajv's own words: the validators compiled ahead of time carry no messages. (An anyOf failure never
    // comes first: its branches' errors precede it, and the first error of a parameter is the one shown.)
    case 'additionalProperties':
      return { code: 'rest_invalid_param', message: `${name} must NOT have additional properties.` };
    default:
      return { code: 'rest_invalid_param', message: `${name} ${err.message ?? 'is invalid'}.` };
  }
}

/** Human label of the offending value: `venue`, `organizer[1].email`. */
function labelOf(path: string[]): string {
  return path.reduce(
    (acc, seg, i) => (i === 0 ? seg : /^\d+$/.test(seg) ? `${acc}[${seg}]` : `${acc}.${seg}`),
    '',
  );
}

export type Validator = (data: unknown) => void;

export function toDomainError(errors: ErrorObject[]): DomainError {
  const missing: string[] = [];
  const problems: Record<string, ParamProblem> = {};
  for (const err of errors) {
    const path = err.instancePath
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (err.keyword === 'required' && path.length === 0) {
      missing.push(String((err.params as { missingProperty: string }).missingProperty));
      continue;
    }
    const top = path[0] ?? 'body';
    if (!problems[top]) problems[top] = describe(err, labelOf(path) || top);
  }
  return missing.length > 0 ? missingParams(missing) : invalidParams(problems);
}

/** Runs several validators and reports missing parameters before invalid ones, as WordPress does. */
export function validateAll(checks: Array<[Validator | undefined, unknown]>): void {
  const errors: DomainError[] = [];
  for (const [validate, data] of checks) {
    try {
      validate?.(data);
    } catch (e) {
      errors.push(e as DomainError);
    }
  }
  if (errors.length === 0) return;
  const missing = errors.filter((e) => e.code === 'rest_missing_callback_param');
  if (missing.length > 0) throw missingParams(missing.flatMap((e) => e.data.params as string[]));
  const merged: Record<string, ParamProblem> = {};
  for (const e of errors) Object.assign(merged, e.data.details as Record<string, ParamProblem>);
  throw invalidParams(merged);
}

/** A validator function as ajv builds it, at run time or ahead of time (shared/schemas/compiled/). */
export type RawValidate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** Wraps a built validator so that it throws the contract's 400s. */
export function checker(fn: RawValidate): Validator {
  return (data) => {
    if (fn(data)) return;
    throw toDomainError(fn.errors ?? []);
  };
}
