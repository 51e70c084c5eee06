import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Infer as InferSchema } from '../schemas/infer';
import type { Operation, RuntimeOperation } from '../contracts/types';
import { atLeast, type User } from '../domain/roles';
import { forbidden } from '../domain/errors';
import type { Precondition } from '../domain/revisions';
import type { CreationKey } from '../repositories/creations';
import { slugKey } from '../domain/slugs';
import { coerceObject } from '../schemas/coerce';
import { checker, type RawValidate, validateAll } from '../schemas/validation-errors';
import { parseBody } from './body';
import { conditionalGet } from './conditional';
import { unauthenticated } from './errors';
import { parseIfMatch } from './etag';
import { loadAuth, loadForBody } from './lazy-parts';
import { logger } from './logger';
import { businessMetrics } from './metrics';
import { parseQueryString } from './params';
import type { ListEnvelope } from './replies';
import { failureResponse, jsonResponse, type Reply } from './respond';
import { type ApiUrls, urlsOf } from './urls';

type Infer<S> = S extends object ? InferSchema<S> : Record<string, never>;

export interface Request<O extends Operation> {
  params: Infer<O['pathParams']>;
  query: Infer<O['query']>;
  body: Infer<O['body']>;
  /** Names of the body fields the caller actually sent (partial updates need them). */
  sent: Set<string>;
  /** Operations that need a role always have a caller; public ones may not. */
  user: O['access'] extends 'public' ? User | null : User;
  urls: ApiUrls;
  /** The API root the caller used (`urls.root`): what services build URLs from. */
  root: string;
  requestId: string;
  /** The request's headers, names in lower case (as API Gateway passes them). */
  headers: Record<string, string | undefined>;
  /** The caller's address as API Gateway saw it (`requestContext.http.sourceIp`; the local gateway sets it too). */
  sourceIp?: string;
  /** `If-Match` of an update or delete: the version the write must find (412 otherwise). */
  ifMatch?: Precondition;
  /** The Lambda context (remaining time), when there is one. */
  context?: Context;
  /** Set on creates sent with an Idempotency-Key (idempotency.ts): they create at most once. */
  creation?: CreationKey;
}

type State = {
  user: User | null;
  urls: ApiUrls;
  params: unknown;
  query: unknown;
  body: unknown;
  sent: Set<string>;
};
type MiddyRequest = middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, Context>;

/**
 * The caller named by the Authorization header, if any. JWT verification (auth.ts, with jose) is loaded
 * by the first request that carries a token (lazy-parts.ts): anonymous reads, most of a public
 * calendar's traffic, never load it.
 */
const caller = async (header: string | undefined): Promise<User | null> =>
  header ? (await loadAuth()).authenticate(header) : null;

/**
 * Wraps an operation's handler in the one middleware stack: logging context, authentication, query and
 * body parsing, validation from the contract, authorization, and the error envelope.
 * Order follows decisions §3: authentication (401) before validation (400) before authorization (403).
 */
/** A list envelope schema (it has `total_pages`), or an item schema. */
type IsList<S> = S extends { readonly properties: { readonly total_pages: unknown } } ? true : false;

/** The body of an operation's success (200 / 201), as its response schema types it. */
export type SuccessBody<O extends Operation> = {
  [K in SuccessKey<O['responses']>]: O['responses'][K] extends { readonly schema: infer S }
    ? IsList<S> extends true
      ? ListEnvelope
      : InferSchema<S>
    : never;
}[SuccessKey<O['responses']>];

/** 200 / 201 when the responses declare them literally (error statuses come in through an index signature). */
type SuccessKey<R> = keyof {
  [K in keyof R as number extends K ? never : K extends 200 | 201 ? K : never]: R[K];
};

/**
 * An operation's module generated ahead of time, `shared/schemas/compiled/<operationId>.ts`: its
 * validators and its run-time part. A function names its operation `O` as a type only
 * (`createHandler<typeof eventOps.create>(compiled, …)`), so the contract's schemas type its requests
 * without being loaded.
 */
export interface CompiledOperation {
  operation: RuntimeOperation;
  params?: RawValidate;
  query?: RawValidate;
  body?: RawValidate;
}

export function createHandler<O extends Operation>(
  compiled: CompiledOperation,
  fn: (req: Request<O>) => Promise<Reply<SuccessBody<O>>>,
) {
  const op = compiled.operation;
  const { shapes } = op;
  for (const part of ['params', 'query', 'body'] as const)
    if (shapes[part] && !compiled[part])
      throw new Error(`${op.operationId}: no compiled ${part} validator; run npm run validators`);
  const validators = {
    params: compiled.params && checker(compiled.params),
    query: compiled.query && checker(compiled.query),
    body: compiled.body && checker(compiled.body),
  };

  const authentication: middy.MiddlewareObj = {
    before: async (req) => {
      const r = req as MiddyRequest;
      const event = r.event;
      logger.appendKeys({ requestId: event.requestContext?.requestId, operation: op.operationId });
      const user = await caller(event.headers?.authorization);
      if (op.access !== 'public' && !user) throw unauthenticated();
      states.set(event, { user, urls: urlsOf(event), params: {}, query: {}, body: {}, sent: new Set() });
    },
  };

  const validation: middy.MiddlewareObj = {
    before: async (req) => {
      const r = req as MiddyRequest;
      const event = r.event;
      const state = states.get(event)!;
      const params = coerceObject(shapes.params ?? {}, decodePathParams(event.pathParameters));
      const query = coerceObject(shapes.query ?? {}, parseQueryString(event.rawQueryString));
      const rawBody = shapes.body ? parseBody(event, op.textBody) : {};
      const body = coerceObject(shapes.body ?? {}, rawBody);
      validateAll([
        [validators.params, params],
        [validators.query, query],
        [validators.body, body],
      ]);
      // A `{slug}` may come encoded or decoded (decisions §9): both name the stored, encoded slug.
      if (typeof params.slug === 'string') params.slug = slugKey(params.slug);
      // What the body needs (the sanitizer for markup, ...) is loaded here, so the services never wait.
      if (shapes.body) await loadForBody(body);
      Object.assign(state, { params, query, body, sent: new Set(Object.keys(rawBody)) });
    },
  };

  const authorization: middy.MiddlewareObj = {
    before: async (req) => {
      const state = states.get((req as MiddyRequest).event)!;
      if (op.access !== 'public' && !atLeast(state.user, op.access)) throw forbidden();
    },
  };

  const errors: middy.MiddlewareObj = {
    onError: async (req) => {
      const r = req as MiddyRequest;
      r.response = await failureResponse(r.error, r.event, r.context?.awsRequestId);
    },
  };

  return (
    middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>()
      .use(businessMetrics(op)) // first, so it counts the final answer (errors included)
      .use(errors)
      .use(authentication)
      .use(validation)
      .use(authorization)
      // Every GET answers If-None-Match (and If-Modified-Since) with a 304 when its ETag still matches.
      .use(op.methods.includes('GET') ? [conditionalGet()] : [])
      .handler(async (event, context) => {
        const state = states.get(event)!;
        const reply = await fn({
          params: state.params,
          query: state.query,
          body: state.body,
          sent: state.sent,
          user: state.user,
          urls: state.urls,
          root: state.urls.root,
          requestId: context?.awsRequestId ?? event.requestContext?.requestId ?? '',
          headers: event.headers ?? {},
          sourceIp: event.requestContext?.http?.sourceIp || undefined,
          ifMatch: op.readOnly ? undefined : parseIfMatch(event.headers?.['if-match']),
          context,
        } as Request<O>);
        return jsonResponse(reply, state.urls);
      })
  );
}

/** Per-invocation state handed from the middlewares to the handler. */
const states = new WeakMap<APIGatewayProxyEventV2, State>();

function decodePathParams(p: Record<string, string | undefined> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(p ?? {})) if (v !== undefined) out[k] = safeDecode(v);
  return out;
}

function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}
