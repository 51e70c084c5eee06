import type { operations as OperationTypes, components } from './generated/schema.js';
import type { operations } from './generated/operations.js';

/**
 * Types of the calls, worked out from the generated OpenAPI types: what each operation takes (path
 * parameters, query, body, the request headers it documents) and what its success answer holds.
 */

export type Schemas = components['schemas'];
export type Event = Schemas['Event'];
export type Venue = Schemas['Venue'];
export type Organizer = Schemas['Organizer'];
export type Category = Schemas['Category'];
export type Tag = Schemas['Tag'];
export type Changes = Schemas['Changes'];
/** The body of every 4xx and 5xx answer. */
export type ErrorEnvelope = Schemas['Error'];

export type OperationId = keyof typeof operations;
/** The operations whose answers page on `next_rest_url`. */
export type ListOperationId = {
  [K in OperationId]: (typeof operations)[K] extends { list: string } ? K : never;
}[OperationId];

type Op<K extends OperationId> = OperationTypes[K];
type Defined<T> = Exclude<T, undefined>;
type Params<O> = O extends { parameters: infer P } ? P : Record<string, never>;
type Part<O, Where extends string> = Params<O> extends { [W in Where]?: infer T } ? Defined<T> : never;
type HeaderNames<O> = [Part<O, 'header'>] extends [never] ? never : keyof Part<O, 'header'>;

type PathArgs<O> = [Part<O, 'path'>] extends [never] ? { path?: never } : { path: Part<O, 'path'> };
type QueryArgs<O> = [Part<O, 'query'>] extends [never]
  ? { query?: never }
  : Params<O> extends { query: infer Q }
    ? { query: Q }
    : { query?: Part<O, 'query'> };
type JsonOf<B> = B extends { content: { 'application/json': infer J } } ? J : never;
type BodyArgs<O> = O extends { requestBody: infer B }
  ? [Defined<B>] extends [never]
    ? { body?: never }
    : undefined extends B
      ? { body?: JsonOf<Defined<B>> }
      : { body: JsonOf<B> }
  : O extends { requestBody?: infer B }
    ? [Defined<B>] extends [never]
      ? { body?: never }
      : { body?: JsonOf<Defined<B>> }
    : { body?: never };
type HeaderArgs<O> = ('If-Match' extends HeaderNames<O>
  ? {
      /** The ETag of the version read (or `*`): the write applies only to that version, else 412. */
      ifMatch?: string | null;
    }
  : { ifMatch?: never }) &
  ('Idempotency-Key' extends HeaderNames<O>
    ? {
        /** A key unique to this create (a UUID): sent again, the create is not repeated. */
        idempotencyKey?: string;
      }
    : { idempotencyKey?: never });

/** What every call takes besides the operation's own parameters. */
export interface CallOptions {
  /** The bearer token for this call; `null` sends none. The client's token when absent. */
  token?: string | null;
  /** More request headers. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export type Args<K extends OperationId> = PathArgs<Op<K>> &
  QueryArgs<Op<K>> &
  BodyArgs<Op<K>> &
  HeaderArgs<Op<K>> &
  CallOptions;
/** The arguments of a call: optional when nothing in them is required. */
export type ArgList<K extends OperationId> = {} extends Args<K> ? [args?: Args<K>] : [args: Args<K>];

type Content<R> = R extends { content: infer C } ? C[keyof C] : undefined;
type Responses<O> = O extends { responses: infer R } ? R : never;
/** The body of the operation's success (200 or 201): JSON, or text for the iCalendar feeds. */
export type Data<K extends OperationId> = Content<
  Responses<Op<K>>[Extract<keyof Responses<Op<K>>, 200 | 201>]
>;
/** One item of a list operation's page (an Event of listEvents). */
export type Item<K extends ListOperationId> =
  Data<K> extends infer D
    ? D extends Record<(typeof operations)[K]['list'], Array<infer T>>
      ? T
      : never
    : never;

/** An answer: status, headers, the parsed body and its ETag. */
export interface Reply<T> {
  status: number;
  headers: Headers;
  data: T;
  etag: string | null;
}
