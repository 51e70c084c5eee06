import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { matchRoute, routeOf, splitNamespace } from '../shared/contracts';
import { CORS_EXPOSE_HEADERS, NO_ROUTE_HANDLER } from '../shared/config';
import type { Invoker } from '../shared/http/dispatch';
import { ApiError } from '../shared/http/errors';
import { errorResponse } from '../shared/http/respond';
import { pageFunctionOf } from '../shared/domain/page-paths';
import {
  INTEGRATION_TIMEOUT_SECONDS,
  noRouteTimeoutSeconds,
  timeoutOf,
} from '../shared/contracts/function-limits';
import { serveLocalSignIn } from './oauth';
import { serveOutbox } from './outbox';
import { readBody } from './request-body';
import { serveWeb } from './web';

type Handler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

const ROOT = resolve(import.meta.dirname, '..');
const modules = new Map<string, Promise<Handler>>();

/**
 * Loads an operation's module and returns its exported `handler`: the same code Lambda runs. The
 * `$default` module gets the local invoker, so a slashed path runs the operation's module here where
 * in AWS it would invoke the operation's function.
 */
function load(handlerPath: string): Promise<Handler> {
  let mod = modules.get(handlerPath);
  if (!mod) {
    mod = import(pathToFileURL(resolve(ROOT, `${handlerPath}.ts`)).href).then((m) => {
      if (handlerPath === NO_ROUTE_HANDLER) (m.setInvoker as (i: Invoker) => void)(runLocally);
      return m.handler as Handler;
    });
    modules.set(handlerPath, mod);
  }
  return mod;
}

/** The local stand-in for Lambda Invoke: the operation's module, called in this process. */
const runLocally: Invoker = async (operation, event) =>
  (await load(operation.handler))(event, contextFor(operation.handler, event.requestContext.requestId));

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': CORS_EXPOSE_HEADERS.join(', '),
};

/** The API Gateway HTTP API (payload 2.0) event that AWS would build for this request. */
export function toEvent(
  req: IncomingMessage,
  body: Buffer,
  routeKey: string,
  pathParameters?: Record<string, string>,
): APIGatewayProxyEventV2 {
  const url = new URL(req.url ?? '/', 'http://local');
  const headers: Record<string, string> = { 'x-forwarded-proto': 'http' };
  for (const [k, v] of Object.entries(req.headers))
    if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(',') : v;
  const requestId = randomUUID();
  const method = req.method ?? 'GET';
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    pathParameters,
    body: body.length > 0 ? body.toString('base64') : undefined,
    isBase64Encoded: body.length > 0,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'localhost',
      http: {
        method,
        path: url.pathname,
        protocol: 'HTTP/1.1',
        sourceIp: req.socket.remoteAddress ?? '',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey,
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
    },
  };
}

/**
 * A function's time, as deployed: its operation's `timeoutSeconds`, else FUNCTION_TIMEOUT_SECONDS
 * (shared/contracts/function-limits.ts, which infra gives the functions). The tests give more
 * (CAL_LOCAL_FUNCTION_TIMEOUT_MS): on a shared, loaded machine a slow answer is not the code's fault.
 */
const functionTimeoutMs = (timeoutSeconds?: number) =>
  Number(process.env.CAL_LOCAL_FUNCTION_TIMEOUT_MS) || timeoutOf({ timeoutSeconds }) * 1000;

/**
 * What API Gateway (HTTP API) answers when a Lambda integration does not answer in time: a function
 * that runs out of its own time fails, which the integration answers 500 `Internal Server Error`; a
 * function still running when the integration's 30 s are up gets 503 `Service Unavailable`
 * (docs/operations.md, "Timeouts"). Neither is the service's error envelope: they come from AWS.
 */
export const TIMED_OUT = {
  function: { status: 500, body: { message: 'Internal Server Error' } },
  integration: { status: 503, body: { message: 'Service Unavailable' } },
} as const;

/**
 * Runs a handler under its function's time and the integration's, as deployed: its answer, or what API
 * Gateway answers when one runs out. Node cannot stop the handler: its work goes on in the background
 * (Lambda would freeze it), and its late answer is dropped.
 */
export async function underLimits(
  run: Promise<APIGatewayProxyStructuredResultV2>,
  timeoutSeconds?: number,
): Promise<APIGatewayProxyStructuredResultV2> {
  const fnMs = functionTimeoutMs(timeoutSeconds);
  // The tests' longer time (CAL_LOCAL_FUNCTION_TIMEOUT_MS) lengthens the integration's too.
  const integrationMs = Math.max(
    INTEGRATION_TIMEOUT_SECONDS * 1000,
    Number(process.env.CAL_LOCAL_FUNCTION_TIMEOUT_MS) || 0,
  );
  const { status, body } = fnMs < integrationMs ? TIMED_OUT.function : TIMED_OUT.integration;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<APIGatewayProxyStructuredResultV2>((ok) => {
    timer = setTimeout(
      () =>
        ok({
          statusCode: status,
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        }),
      Math.min(fnMs, integrationMs),
    );
  });
  run.catch(() => {}); // a late failure is dropped with the late answer
  try {
    return await Promise.race([run, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** The Lambda context of one invocation: its time left counts down from the invocation's start, as in Lambda. */
export function contextFor(name: string, requestId: string, timeoutSeconds?: number): Context {
  const ends = Date.now() + functionTimeoutMs(timeoutSeconds);
  return {
    functionName: name,
    awsRequestId: requestId,
    getRemainingTimeInMillis: () => Math.max(0, ends - Date.now()),
  } as Context;
}

/**
 * Routes like the HTTP API does: exact route keys from the contracts, everything else (unknown paths,
 * other methods, trailing slashes, CORS preflights) to `$default`.
 */
async function dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readBody(req);
  const pathname = new URL(req.url ?? '/', 'http://local').pathname;
  const split = splitNamespace(pathname);
  const found = split && matchRoute(req.method ?? 'GET', split.below, split.namespace).match;
  const handlerPath = found?.operation.handler ?? NO_ROUTE_HANDLER;
  const routeKey = found ? `${req.method} ${routeOf(found.operation)}` : '$default';
  const event = toEvent(req, body, routeKey, found?.pathParameters);
  // `$default` (noRoute) has the longest time of the functions it forwards to, as deployed.
  const timeoutSeconds = found ? timeoutOf(found.operation) : noRouteTimeoutSeconds();
  const handler = await load(handlerPath);
  const result = await underLimits(
    handler(event, contextFor(handlerPath, event.requestContext.requestId, timeoutSeconds)),
    timeoutSeconds,
  );
  res.writeHead(result.statusCode ?? 200, { ...CORS, ...(result.headers as Record<string, string>) });
  res.end(result.body ?? '');
}

/**
 * The pages' functions (functions/pages), which CloudFront's page behaviours reach deployed: the public
 * pages (read-only) and the tickets' pages (form posts, the attendee's own), by the routes of
 * shared/domain/page-paths.ts.
 */
const PAGE_HANDLERS = {
  render: 'functions/pages/render-page',
  tickets: 'functions/pages/ticket-pages',
} as const;

/** A request to a page (`GET /event/<slug>/`, `POST /event/<slug>/register/`, ...): its function, as deployed. */
async function servePage(
  req: IncomingMessage,
  res: ServerResponse,
  fn: keyof typeof PAGE_HANDLERS,
): Promise<void> {
  const handlerPath = PAGE_HANDLERS[fn];
  // Only the tickets' pages take a body (their forms); a public page's GET has none.
  const event = toEvent(req, fn === 'tickets' ? await readBody(req) : Buffer.alloc(0), '$default');
  const result = await (
    await load(handlerPath)
  )(event, contextFor(handlerPath, event.requestContext.requestId));
  res.writeHead(result.statusCode ?? 200, result.headers as Record<string, string>);
  res.end(req.method === 'HEAD' ? undefined : (result.body ?? ''));
}

/** The longest request target (path and query) the gateway routes; a longer one is a 414. */
export const MAX_URL_BYTES = 16 * 1024;
/**
 * What Node reads of a request line and its headers together before giving up (its default is 16 KB,
 * which would refuse a long URL before the gateway could answer it).
 */
export const MAX_HEADER_BYTES = 64 * 1024;

const urlTooLong = () =>
  new ApiError(414, 'rest_url_too_long', `The request URL is longer than ${MAX_URL_BYTES} bytes.`);
const headersTooLarge = () =>
  new ApiError(
    431,
    'rest_headers_too_large',
    `The request line and headers are larger than ${MAX_HEADER_BYTES} bytes.`,
  );
const badRequest = () => new ApiError(400, 'rest_bad_request', 'The request is not valid HTTP.');
const requestTimeout = () =>
  new ApiError(408, 'rest_request_timeout', 'The request was not received in time.');

/**
 * The start of the line being received on each connection (after its last line feed), kept so that a
 * request Node refuses as too large can be told apart: a request line (`METHOD target…`, a 414) or a
 * header line (`Name: value…`, a 431).
 */
const lineStarts = new WeakMap<Socket, Buffer>();
const LINE_START_BYTES = 32;

function lineStartAfter(previous: Buffer, chunk: Buffer): Buffer {
  const lf = chunk.lastIndexOf(10);
  if (lf >= 0) return Buffer.from(chunk.subarray(lf + 1, lf + 1 + LINE_START_BYTES));
  if (previous.length >= LINE_START_BYTES) return previous;
  return Buffer.concat([previous, chunk]).subarray(0, LINE_START_BYTES);
}

/**
 * A header line starts with its name (a token) and a colon; a request line with a method and a space.
 * What is not a header line is taken for a request line (also one glued to the end of a previous body).
 */
const HEADER_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+(:|$)/;

type ParseError = Error & { code?: string; rawPacket?: Buffer; bytesParsed?: number };

/** The envelope for a request Node's parser refused; nothing of the parser's error reaches the caller. */
function refusalOf(error: ParseError, socket: Socket): ApiError {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return requestTimeout();
  if (error.code !== 'HPE_HEADER_OVERFLOW') return badRequest();
  const raw = error.rawPacket ?? Buffer.alloc(0);
  const parsed = raw.subarray(0, error.bytesParsed ?? raw.length);
  const line = lineStartAfter(lineStarts.get(socket) ?? Buffer.alloc(0), parsed).toString('latin1');
  return HEADER_LINE.test(line) ? headersTooLarge() : urlTooLong();
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  414: 'URI Too Long',
  431: 'Request Header Fields Too Large',
};

const answered = new WeakSet<Socket>();

/**
 * Answers what Node refuses before a request exists (too large, not HTTP, too slow) with the service's
 * error envelope, after the answer to any request before it on the connection, then closes the
 * connection gracefully: the rest of what the client sends is read and dropped, so the answer is not
 * lost to a reset.
 */
function onClientError(error: ParseError, socket: Socket): void {
  if (answered.has(socket)) return; // the parser reports every further chunk as an error too
  answered.add(socket);
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const api = refusalOf(error, socket);
  const send = () => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const body = JSON.stringify(api.toBody());
    const headers = {
      ...CORS,
      'Content-Type': 'application/json; charset=UTF-8',
      'X-Cal-API-Version': 'v1',
      'Content-Length': String(Buffer.byteLength(body)),
      Connection: 'close',
    };
    const head = Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    socket.end(`HTTP/1.1 ${api.status} ${STATUS_TEXT[api.status] ?? 'Error'}\r\n${head}\r\n${body}`);
    setTimeout(() => socket.destroy(), 2_000).unref();
  };
  socket.resume();
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (inFlight) inFlight.once('close', send);
  else send();
}

export async function startGateway(port: number, host = '127.0.0.1'): Promise<Server> {
  // An idle connection outlives the clients' own keep-alive (undici closes it a second before the hint):
  // at Node's 5 s, a client on a stalled, loaded machine reuses a socket the gateway is closing and
  // gets ECONNRESET. 65 s is what AWS load balancers keep.
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES, keepAliveTimeout: 65_000 }, (req, res) => {
    if ((req.url ?? '').length > MAX_URL_BYTES) {
      const reply = errorResponse(urlTooLong(), toEvent(req, Buffer.alloc(0), '$default'));
      res.writeHead(reply.statusCode ?? 414, { ...CORS, ...(reply.headers as Record<string, string>) });
      res.end(reply.body);
      return;
    }
    // The calendar page and the API explorer (web/dist) outside /cal/, as CloudFront serves them, and
    // the local stand-in for Cognito's hosted sign-in.
    if (serveLocalSignIn(req, res) || serveOutbox(req, res) || serveWeb(req, res)) return;
    const { pathname } = new URL(req.url ?? '/', 'http://local');
    const page = pageFunctionOf(req.method ?? 'GET', pathname);
    (page ? servePage(req, res, page) : dispatch(req, res)).catch((e) => {
      console.error(e);
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({ code: 'rest_internal_error', message: 'Gateway failure.', data: { status: 500 } }),
      );
    });
  });
  // Watching the bytes as they arrive (alongside Node's parser) is what tells a long URL from long headers.
  server.on('connection', (socket: Socket) => {
    lineStarts.set(socket, Buffer.alloc(0));
    socket.on('data', (chunk: Buffer) => {
      lineStarts.set(socket, lineStartAfter(lineStarts.get(socket)!, chunk));
    });
  });
  server.on('clientError', onClientError);
  await new Promise<void>((ok) => server.listen(port, host, ok));
  return server;
}
