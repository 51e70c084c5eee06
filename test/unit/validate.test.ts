import { describe, expect, it } from 'vitest';
import { ApiError, asApiError } from '../../shared/http/errors';
import { compileValidator, type Validator, validateAll } from '../../shared/schemas/validate';

/** How ajv's errors become the contract's 400s (decisions §2). */
function failure(validate: Validator, data: unknown): ApiError {
  try {
    validate(data);
  } catch (e) {
    // Validators throw domain errors; the HTTP layer's form is what clients see.
    const api = asApiError(e);
    expect(api).toBeInstanceOf(ApiError);
    return api!;
  }
  throw new Error('expected the validator to throw');
}

function failureOfAll(checks: Array<[Validator | undefined, unknown]>): ApiError {
  try {
    validateAll(checks);
  } catch (e) {
    return asApiError(e)!;
  }
  throw new Error('expected validateAll to throw');
}

const body = compileValidator({
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 10 },
    title: { type: 'string' },
    page: { type: 'integer', minimum: 1, default: 1 },
    per_page: { type: 'integer', minimum: 1, maximum: 50 },
    slug: { type: 'string', minLength: 3 },
    order: { type: 'string', enum: ['asc', 'desc'] },
    flag: { enum: [true, false, 'true', 'false'] },
    tags: { type: 'array', maxItems: 2 },
    website: { type: 'string', format: 'uri' },
    email: { type: 'string', format: 'email' },
    image: { type: ['string', 'integer', 'null'] },
    ref: { type: ['integer', 'string'] },
    radius: { type: 'number', exclusiveMinimum: 0 },
    code: { type: 'string', pattern: '^[A-Z]{3}$' },
    organizer: {
      type: 'array',
      items: {
        type: 'object',
        properties: { email: { type: 'string', format: 'email' } },
        required: ['organizer'],
      },
    },
  },
  required: ['name', 'title'],
});

const ok = { name: 'Music', title: 'T' };

describe('compileValidator', () => {
  it('accepts valid data', () => {
    expect(() => body({ ...ok })).not.toThrow();
  });

  it('fills in defaults', () => {
    const data: Record<string, unknown> = { ...ok };

    body(data);

    expect(data.page).toBe(1);
  });

  it('reports every missing parameter as rest_missing_callback_param', () => {
    const err = failure(body, {});

    expect(err.status).toBe(400);
    expect(err.toBody()).toEqual({
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): name, title',
      data: { status: 400, params: ['name', 'title'] },
    });
  });

  it('reports missing parameters before invalid ones', () => {
    const err = failure(body, { title: 'T', page: 'x', order: 'up' });

    expect(err.code).toBe('rest_missing_callback_param');
    expect(err.extra.params).toEqual(['name']);
  });

  it('reports every invalid parameter as rest_invalid_param with a reason and a code each', () => {
    const err = failure(body, { ...ok, page: 0, order: 'up' });

    expect(err.toBody()).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): page, order',
      data: {
        status: 400,
        params: { page: 'page must be greater than or equal to 1.', order: 'order is not one of asc, desc.' },
        details: {
          page: { code: 'rest_out_of_bounds', message: 'page must be greater than or equal to 1.' },
          order: { code: 'rest_not_in_enum', message: 'order is not one of asc, desc.' },
        },
      },
    });
  });

  it('keeps one reason per parameter, the first', () => {
    const err = failure(body, { ...ok, name: 5 });

    expect(Object.keys(err.extra.details as object)).toEqual(['name']);
    expect((err.extra.params as Record<string, string>).name).toBe('name is not of type string.');
  });
});

describe('reasons per keyword', () => {
  it.each<[string, Record<string, unknown>, string, string, string]>([
    ['type', { page: 'x' }, 'page', 'rest_invalid_type', 'page is not of type integer.'],
    [
      'type with two types',
      { ref: true },
      'ref',
      'rest_invalid_type',
      'ref is not of type integer or string.',
    ],
    [
      'type with three types',
      { image: {} },
      'image',
      'rest_invalid_type',
      'image is not of type string or integer or null.',
    ],
    [
      'minimum',
      { per_page: 0 },
      'per_page',
      'rest_out_of_bounds',
      'per_page must be greater than or equal to 1.',
    ],
    [
      'maximum',
      { per_page: 51 },
      'per_page',
      'rest_out_of_bounds',
      'per_page must be less than or equal to 50.',
    ],
    ['exclusiveMinimum', { radius: 0 }, 'radius', 'rest_out_of_bounds', 'radius must be greater than 0.'],
    ['minLength 1', { name: '' }, 'name', 'rest_too_short', 'name must not be empty.'],
    [
      'minLength above 1',
      { slug: 'ab' },
      'slug',
      'rest_too_short',
      'slug must be at least 3 characters long.',
    ],
    [
      'maxLength',
      { name: 'x'.repeat(11) },
      'name',
      'rest_too_long',
      'name must be at most 10 characters long.',
    ],
    ['maxItems', { tags: [1, 2, 3] }, 'tags', 'rest_too_many_items', 'tags must contain at most 2 items.'],
    ['enum', { order: 'up' }, 'order', 'rest_not_in_enum', 'order is not one of asc, desc.'],
    [
      'enum of flags, each spelling once',
      { flag: 'yes' },
      'flag',
      'rest_not_in_enum',
      'flag is not one of true, false.',
    ],
    ['format uri', { website: 'not a url' }, 'website', 'rest_invalid_format', 'website is not a valid URL.'],
    [
      'format email',
      { email: 'nope' },
      'email',
      'rest_invalid_format',
      'email is not a valid e-mail address.',
    ],
    [
      'any other keyword',
      { code: 'abc' },
      'code',
      'rest_invalid_param',
      'code must match pattern "^[A-Z]{3}$".',
    ],
  ])('%s', (_keyword, data, param, code, message) => {
    const err = failure(body, { ...ok, ...data });

    expect(err.extra.details).toEqual({ [param]: { code, message } });
    expect(err.extra.params).toEqual({ [param]: message });
  });

  it('names nested values by their path and reports them under the top-level parameter', () => {
    const err = failure(body, { ...ok, organizer: [{ organizer: 'A' }, { organizer: 'B', email: 'bad' }] });

    expect(err.extra.details).toEqual({
      organizer: {
        code: 'rest_invalid_format',
        message: 'organizer[1].email is not a valid e-mail address.',
      },
    });
  });

  it('reports a missing nested property as invalid, not missing', () => {
    const err = failure(body, { ...ok, organizer: [{ email: 'a@b.example' }] });

    expect(err.code).toBe('rest_invalid_param');
    expect(err.extra.details).toEqual({
      organizer: { code: 'rest_missing_property', message: 'organizer[0].organizer is required.' },
    });
  });

  it('names the body itself when it is not an object', () => {
    const err = failure(body, ['not', 'an', 'object']);

    expect(err.extra.details).toEqual({
      body: { code: 'rest_invalid_type', message: 'body is not of type object.' },
    });
  });
});

describe('validateAll', () => {
  const query = compileValidator({ type: 'object', properties: { page: { type: 'integer', minimum: 1 } } });
  const path = compileValidator({
    type: 'object',
    properties: { id: { type: 'integer', minimum: 1 } },
    required: ['id'],
  });

  it('passes when every part is valid, skipping absent validators', () => {
    expect(() =>
      validateAll([
        [path, { id: 1 }],
        [query, {}],
        [undefined, { anything: true }],
        [body, { ...ok }],
      ]),
    ).not.toThrow();
  });

  it('reports missing parameters of any part before invalid ones of another', () => {
    const err = failureOfAll([
      [query, { page: 0 }],
      [body, { name: 'Music' }],
    ]);

    expect(err.toBody()).toEqual({
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): title',
      data: { status: 400, params: ['title'] },
    });
  });

  it('lists the missing parameters of every part together', () => {
    const err = failureOfAll([
      [path, {}],
      [body, { name: 'Music' }],
    ]);

    expect(err.extra.params).toEqual(['id', 'title']);
  });

  it('merges the invalid parameters of every part into one 400', () => {
    const err = failureOfAll([
      [path, { id: 0 }],
      [query, { page: 'x' }],
      [body, { ...ok, order: 'up' }],
    ]);

    expect(err.code).toBe('rest_invalid_param');
    expect(err.message).toBe('Invalid parameter(s): id, page, order');
    expect(Object.keys(err.extra.details as object)).toEqual(['id', 'page', 'order']);
  });
});
