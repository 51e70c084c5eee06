import { STATUSES } from '../domain/statuses';

/** Schemas shared by every resource: path ids, paging, limits and the error envelope. */

export const LIMITS = {
  name: 1000,
  description: 100_000,
  excerpt: 10_000,
  string: 2000,
  arrayItems: 100,
} as const;

export const idPath = {
  type: 'object',
  properties: { id: { type: 'integer', minimum: 0, description: 'Numeric identifier of the record.' } },
  required: ['id'],
  additionalProperties: false,
} as const;

export const slugPath = {
  type: 'object',
  properties: { slug: { type: 'string', minLength: 1, maxLength: 200, description: 'Slug of the record.' } },
  required: ['slug'],
  additionalProperties: false,
} as const;

export const paging = {
  page: { type: 'integer', minimum: 1, default: 1, description: 'The page of results to return.' },
  per_page: {
    type: 'integer',
    minimum: 1,
    default: 10,
    description: 'Results per page; values above the deployment maximum (50 by default) are capped.',
  },
} as const;

export const text = (description: string, maxLength: number = LIMITS.string) =>
  ({ type: 'string', maxLength, description }) as const;

export const nonEmptyText = (description: string, maxLength: number = LIMITS.string) =>
  ({ type: 'string', minLength: 1, maxLength, description }) as const;

/** An array parameter; query strings may send it as CSV, repeated keys or `name[]`. */
export const list = <const T extends object>(items: T, description: string) =>
  ({ type: 'array', items, maxItems: LIMITS.arrayItems, description }) as const;

export const idOrSlug = { type: ['integer', 'string'], minLength: 1, maxLength: 200 } as const;

export const errorEnvelope = {
  type: 'object',
  properties: {
    code: { type: 'string' },
    message: { type: 'string' },
    data: {
      type: 'object',
      properties: {
        status: { type: 'integer' },
        // rest_missing_callback_param names the missing parameters; rest_invalid_param gives each a reason.
        params: {
          anyOf: [
            { type: 'array', items: { type: 'string' } },
            { type: 'object', additionalProperties: { type: 'string' } },
          ],
        },
        details: {
          type: 'object',
          additionalProperties: {
            type: 'object',
            properties: { code: { type: 'string' }, message: { type: 'string' } },
            required: ['code', 'message'],
          },
        },
      },
      required: ['status'],
    },
  },
  required: ['code', 'message', 'data'],
} as const;

const urlString = { type: 'string' } as const;

/** Envelope shared by every list response: `{<key>: [...], rest_url, next_rest_url?, ...}`. */
export const listEnvelope = (key: string, item: object) =>
  ({
    type: 'object',
    properties: {
      [key]: { type: 'array', items: item },
      rest_url: urlString,
      next_rest_url: urlString,
      previous_rest_url: urlString,
      total: { type: 'integer', minimum: 0 },
      total_pages: { type: 'integer', minimum: 0 },
    },
    required: [key, 'rest_url', 'total', 'total_pages'],
  }) as const;

const str = { type: 'string' } as const;

/** The run of keys every post representation has in this order: author, status, dates, public URL. */
export const postHeadFields = {
  author: str,
  status: { type: 'string', enum: STATUSES },
  date: str,
  date_utc: str,
  modified: str,
  modified_utc: str,
  url: str,
} as const;
