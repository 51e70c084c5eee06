import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import type { Operation, RuntimeOperation } from '../contracts/types';
import { idempotencyKeyReused } from '../domain/errors';
import { idempotencyStore } from '../db/idempotency';
import { type CreationKey, IDEMPOTENCY_TTL_SECONDS } from '../repositories/creations';
import { idempotencyInProgress } from './errors';
import { withEntityTag } from './etag';
import type { Request } from './handler';
import { logger } from './logger';
import type { Reply } from './respond';

/** A create run at most once per creation key with Powertools (idempotency.ts loads this on demand). */
export type KeyedRun<O extends Operation, B> = (creation: CreationKey, req: Request<O>) => Promise<Reply<B>>;

const REPLAYED = 'Idempotent-Replayed';

/**
 * An answer as stored: the body as JSON text, since a DynamoDB map does not keep key order and the
 * API's bodies have a fixed one (a replay is byte for byte the first answer, as its ETag says).
 */
interface Stored {
  status: number;
  headers: Record<string, string>;
  json: string;
}
// No undefined values: Powertools marshals the answer without dropping them.
const store = <B>(reply: Reply<B>): Stored => ({
  status: reply.status ?? 200,
  headers: reply.headers ?? {},
  json: JSON.stringify(reply.body),
});
const restore = <B>(stored: Stored): Reply<B> => ({
  status: stored.status,
  headers: stored.headers,
  body: JSON.parse(stored.json) as B,
});

export function keyedRun<O extends Operation, B>(
  op: Pick<RuntimeOperation, 'operationId'>,
  fn: (req: Request<O>) => Promise<Reply<B>>,
): KeyedRun<O, B> {
  const config = new IdempotencyConfig({
    eventKeyJmesPath: 'request',
    payloadValidationJmesPath: 'payload',
    expiresAfterSeconds: IDEMPOTENCY_TTL_SECONDS,
    // A stored answer goes out as it was, marked as a replay.
    responseHook: (response) => {
      const stored = response as unknown as Stored;
      return { ...stored, headers: { ...stored.headers, [REPLAYED]: 'true' } } as never;
    },
  });
  const persistenceStore = idempotencyStore(op.operationId);
  // The first argument is what Powertools hashes; the answer is stored with its ETag.
  const run = makeIdempotent(
    async (_key: CreationKey, req: Request<O>, done: { reply?: Reply<B> }) => {
      done.reply = withEntityTag(await fn(req));
      return store(done.reply) as never;
    },
    { persistenceStore, config, keyPrefix: op.operationId, dataIndexArgument: 0 },
  );

  return async (creation, req) => {
    // The in-progress record lasts as long as this invocation may run; after that a retry may run again.
    if (req.context?.getRemainingTimeInMillis) config.registerLambdaContext(req.context);
    const done: { reply?: Reply<B> } = {};
    try {
      return restore<B>((await run(creation, { ...req, creation }, done)) as Stored);
    } catch (e) {
      // Storing the answer failed after the create landed: a create that succeeded is answered as
      // such (a retry with the key finds its record through the guard).
      if (done.reply && nameOf(e) === 'IdempotencyPersistenceLayerError') {
        await logger.warn('idempotency record not saved', { error: e as Error });
        return done.reply;
      }
      throw translate(e);
    }
  };
}

const nameOf = (e: unknown) => (e as { name?: string } | undefined)?.name;

/** Powertools' errors as the API's; a failing store is reported as what failed under it. */
function translate(e: unknown): unknown {
  switch (nameOf(e)) {
    case 'IdempotencyValidationError':
      return idempotencyKeyReused();
    case 'IdempotencyAlreadyInProgressError':
    case 'IdempotencyInconsistentStateError':
      return idempotencyInProgress();
    case 'IdempotencyPersistenceLayerError':
      return (e as Error).cause ?? e;
    default:
      return e;
  }
}
