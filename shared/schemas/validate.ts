import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { checker, type Validator } from './validation-errors';

/** The options every validator is built with, at run time (tests) or ahead of time (functions). */
export const AJV_OPTIONS = { allErrors: true, strict: false, useDefaults: true } as const;

const ajv = new Ajv2020(AJV_OPTIONS);
addFormats(ajv);

/**
 * Compiles a schema at run time; the returned function throws the contract's 400s. Functions use the
 * validators compiled ahead of time (shared/schemas/compiled/) instead; this serves tests and tools.
 */
export function compileValidator(schema: object): Validator {
  return checker(ajv.compile(schema));
}

export { toDomainError, validateAll, type Validator } from './validation-errors';
