import { operations } from './generated/operations.js';
import type {
  ArgList,
  Args,
  Data,
  ErrorEnvelope,
  Item,
  ListOperationId,
  OperationId,
  Reply,
} from './types.js';

/** The API's namespace: links it returns are followed below the client's base URL from here on. */
const NAMESPACE = '/cal/events/v1';

/** A 4xx or 5xx answer, with its error envelope `{code, message, data: {status, params?, details?}}`. */
export class CalApiError extends Error {
  override readonly name = 'CalApiError';

  constructor(
    readonly status: number,
    readonly body: ErrorEnvelope,
    readonly headers: Headers,
  ) {
    super(body.message || `HTTP ${status}`);
  }

  /** The stable error code: `rest_invalid_param`, `rest-event-not-found`, `rest_precondition_failed`, ... */
  get code(): string {
    return this.body.code;
  }
}

export interface ClientOptions {
  /** The API root: `https://api.example.com/cal/events/v1`, or `/cal/events/v1` in a page on its origin. */
  baseUrl: string;
  /** The bearer token of every call, or a function asked before each call; none when absent. */
  token?: string | null | (() => string | null | undefined);
  /** The fetch to use; the global one when absent. */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
}

/** A request as given, for what the typed calls do not cover (a raw body, a form, any path). */
export interface SendOptions {
  /** Sent as JSON. */
  body?: unknown;
  /** Sent form-encoded instead. */
  form?: Record<string, string>;
  /** Sent as it is (with the content-type of `headers`, if any). */
  raw?: string;
  token?: string | null;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  redirect?: 'follow' | 'manual' | 'error';
}

type Calls = { [K in OperationId]: (...args: ArgList<K>) => Promise<Reply<Data<K>>> };

export interface CalClient extends Calls {
  /** Any request below the base URL (`path` with its query; or an absolute URL); resolves with every status. */
  send(method: string, path: string, options?: SendOptions): Promise<Reply<unknown>>;
  /** Every page of a list, following `next_rest_url` until there is none. */
  pages<K extends ListOperationId>(operation: K, ...args: ArgList<K>): AsyncGenerator<Data<K>>;
  /** Every item of a list, page after page. */
  items<K extends ListOperationId>(operation: K, ...args: ArgList<K>): AsyncGenerator<Item<K>>;
}

type Scalar = string | number | boolean;
type QueryValue = Scalar | readonly Scalar[] | null | undefined;

/** Query parameters as the API reads them: lists comma-separated (OpenAPI form style, not exploded). */
function queryString(query: Record<string, QueryValue> | undefined): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {}))
    if (value != null) search.set(name, Array.isArray(value) ? value.join(',') : String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

const fillPath = (template: string, params: Record<string, string | number> = {}) =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name])));

/** JSON when the answer says so (an unreadable one as its text); text otherwise; nothing when empty. */
function parse(text: string, contentType: string | null): unknown {
  if (!text) return undefined;
  if (!contentType?.includes('json')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The envelope of an error answer; one made up when a proxy answered with something else. */
function envelope(status: number, body: unknown): ErrorEnvelope {
  if (typeof body === 'object' && body !== null && typeof (body as ErrorEnvelope).code === 'string')
    return body as ErrorEnvelope;
  return {
    code: 'not_json',
    message: `HTTP ${status}: the answer is not the API's error envelope.`,
    data: { status },
  };
}

export function createClient(options: ClientOptions): CalClient {
  const base = options.baseUrl.replace(/\/+$/, '');
  // Looked up at each call, so that a fetch replaced later (a test's stub) is the one used.
  const doFetch = options.fetch ?? ((input: string, init: RequestInit) => fetch(input, init));
  const tokenOf = (given: string | null | undefined) =>
    given !== undefined ? given : typeof options.token === 'function' ? options.token() : options.token;

  /** The root of another namespace (`cal/tickets/v1`) on the same host: this base with its namespace swapped. */
  const rootOf = (namespace?: string) =>
    namespace
      ? `${base.slice(0, base.length - (base.endsWith(NAMESPACE) ? NAMESPACE.length : 0))}/${namespace}`
      : base;

  async function send(
    method: string,
    path: string,
    o: SendOptions = {},
    root: string = base,
  ): Promise<Reply<unknown>> {
    const headers: Record<string, string> = { ...o.headers };
    const token = tokenOf(o.token);
    if (token) headers.authorization = `Bearer ${token}`;
    let body = o.raw;
    if (o.form) {
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
      body = new URLSearchParams(o.form).toString();
    } else if (o.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(o.body);
    }
    const res = await doFetch(/^https?:\/\//.test(path) ? path : `${root}${path}`, {
      method,
      headers,
      body,
      signal: o.signal,
      ...(o.redirect ? { redirect: o.redirect } : {}),
    });
    const data = parse(await res.text(), res.headers.get('content-type'));
    return { status: res.status, headers: res.headers, data, etag: res.headers.get('etag') };
  }

  async function checked(
    method: string,
    path: string,
    o: SendOptions,
    root?: string,
  ): Promise<Reply<unknown>> {
    const reply = await send(method, path, o, root);
    if (reply.status >= 400)
      throw new CalApiError(reply.status, envelope(reply.status, reply.data), reply.headers);
    return reply;
  }

  function call(id: OperationId, args: Partial<Args<OperationId>> = {}) {
    const op: { method: string; path: string; namespace?: string } = operations[id];
    const { method, path } = op;
    const headers: Record<string, string> = { ...args.headers };
    if (args.ifMatch) headers['if-match'] = args.ifMatch;
    if (args.idempotencyKey) headers['idempotency-key'] = args.idempotencyKey;
    const url =
      fillPath(path, args.path as Record<string, string | number> | undefined) +
      queryString(args.query as Record<string, QueryValue> | undefined);
    return checked(
      method,
      url,
      { body: args.body, headers, token: args.token, signal: args.signal },
      rootOf(op.namespace),
    );
  }

  /** A link the API returned, below this client's base URL (the API may name another host, behind a CDN). */
  function below(link: string): string {
    const url = new URL(link, 'http://any');
    const at = url.pathname.indexOf(NAMESPACE);
    return at < 0 ? link : `${url.pathname.slice(at + NAMESPACE.length)}${url.search}`;
  }

  async function* pages(id: ListOperationId, args?: Args<ListOperationId>) {
    let reply = await call(id, args);
    for (;;) {
      const page = reply.data as { next_rest_url?: string };
      yield page;
      if (typeof page.next_rest_url !== 'string') return;
      try {
        reply = await checked('GET', below(page.next_rest_url), { token: args?.token, signal: args?.signal });
      } catch (e) {
        // The list shrank since the last page (records deleted meanwhile): there is no next page.
        if (e instanceof CalApiError && e.status === 404) return;
        throw e;
      }
    }
  }

  async function* items(id: ListOperationId, args?: Args<ListOperationId>) {
    const key = operations[id].list;
    for await (const page of pages(id, args)) yield* (page as Record<string, unknown[]>)[key] ?? [];
  }

  const calls = Object.fromEntries(
    Object.keys(operations).map((id) => [id, (args?: Args<OperationId>) => call(id as OperationId, args)]),
  );
  return { ...calls, send, pages, items } as unknown as CalClient;
}
