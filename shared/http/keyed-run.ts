import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { Operation, RuntimeOperation } from '../contracts/types';
import type { IdempotencyStoreOptions } from '../db/idempotency';
import type { CreationKey } from '../repositories/creations';
import type { Request } from './handler';
import type { Reply } from './respond';

/**
 * What a keyed run takes from the function's start (idempotency.ts) instead of importing it. A chunk
 * loaded on demand that imports modules of the start makes esbuild split those modules into small
 * chunks of their own, shared by both: files every cold start opens (three more for an event create,
 * about 2.5 ms of its start; docs/cold-start.md). This one imports only Powertools and types.
 */
export interface KeyedRunParts {
  /** Powertools' DynamoDB persistence layer's options: the table, its keys and the project's client. */
  store: IdempotencyStoreOptions;
  ttlSeconds: number;
  /** The answer's ETag, stored with it (etag.ts). */
  withEntityTag: <B>(reply: Reply<B>) => Reply<B>;
  /** Logs a warning with its error (logger.ts). */
  warn: (message: string, error: Error) => Promise<void>;
  /** The API's errors for a key reused with another body and for a request still running. */
  keyReused: () => Error;
  inProgress: () => Error;
}

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
  parts: KeyedRunParts,
): KeyedRun<O, B> {
  const { withEntityTag } = parts;
  const config = new IdempotencyConfig({
    eventKeyJmesPath: 'request',
    payloadValidationJmesPath: 'payload',
    expiresAfterSeconds: parts.ttlSeconds,
    // A stored answer goes out as it was, marked as a replay.
    responseHook: (response) => {
      const stored = response as unknown as Stored;
      return { ...stored, headers: { ...stored.headers, [REPLAYED]: 'true' } } as never;
    },
  });
  const persistenceStore = new DynamoDBPersistenceLayer(parts.store);
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
        await parts.warn('idempotency record not saved', e as Error);
        return done.reply;
      }
      throw translate(e, parts);
    }
  };
}

const nameOf = (e: unknown) => (e as { name?: string } | undefined)?.name;

/** Powertools' errors as the API's; a failing store is reported as what failed under it. */
function translate(e: unknown, parts: KeyedRunParts): unknown {
  switch (nameOf(e)) {
    case 'IdempotencyValidationError':
      return parts.keyReused();
    case 'IdempotencyAlreadyInProgressError':
    case 'IdempotencyInconsistentStateError':
      return parts.inProgress();
    case 'IdempotencyPersistenceLayerError':
      return (e as Error).cause ?? e;
    default:
      return e;
  }
}
