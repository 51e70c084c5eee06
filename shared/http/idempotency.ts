import { createHash } from 'node:crypto';
import type { Operation, RuntimeOperation } from '../contracts/types';
import { idempotencyKeyReused } from '../domain/errors';
import { idempotencyStore } from '../db/idempotency';
import { type CreationKey, IDEMPOTENCY_TTL_SECONDS } from '../repositories/creations';
import { idempotencyInProgress, invalidIdempotencyKey } from './errors';
import { withEntityTag } from './etag';
import type { Request } from './handler';
import type { KeyedRun, KeyedRunParts } from './keyed-run';
import { logger } from './logger';
import type { Reply } from './respond';

/**
 * `Idempotency-Key` on creates (only create functions import this module).
 *
 * Powertools' idempotency utility keeps each answer for 24 hours, keyed by operation, caller (token
 * subject) and key: the same key and body get the first answer again (status, body, Location, ETag,
 * plus `Idempotent-Replayed: true`); another body is a 422; a request still running is a 409 with
 * Retry-After. What Powertools cannot know, whether a first attempt that ended without an answer (a
 * timeout) wrote anyway, the creation guard in the create's own transaction settles: a create with
 * the key lands at most once, and a retry answers with the record it made.
 *
 * Powertools is loaded by the first request that carries a key (keyed-run.ts, a chunk of its own in
 * the function's bundle): creates sent without one, most of them, never pay for it at cold start.
 */

const HEADER = 'idempotency-key';
const VALID_KEY = /^[\x20-\x7e]{1,255}$/;

/** Deterministic JSON (keys sorted at every level), so key order in the body does not matter. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null)
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

const hash = (text: string) => createHash('sha256').update(text).digest('base64url');

/** What keyed-run.ts takes from here rather than importing it (its KeyedRunParts say why). */
const partsFor = (operationId: string): KeyedRunParts => ({
  store: idempotencyStore(operationId),
  ttlSeconds: IDEMPOTENCY_TTL_SECONDS,
  withEntityTag,
  warn: (message, error) => logger.warn(message, { error }),
  keyReused: idempotencyKeyReused,
  inProgress: idempotencyInProgress,
});

export function idempotent<O extends Operation, B>(
  op: RuntimeOperation,
  fn: (req: Request<O>) => Promise<Reply<B>>,
): (req: Request<O>) => Promise<Reply<B>> {
  let keyed: KeyedRun<O, B> | undefined;
  return async (req) => {
    const key = req.headers[HEADER]?.trim();
    if (key === undefined) return fn(req);
    if (!VALID_KEY.test(key)) throw invalidIdempotencyKey();
    const creation: CreationKey = {
      request: hash(canonical([op.operationId, req.user?.sub ?? '', key])),
      payload: hash(canonical(req.body)),
    };
    keyed ??= (await import('./keyed-run')).keyedRun(op, fn, partsFor(op.operationId));
    return keyed(creation, req);
  };
}
