import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { matchRoute } from '../shared/contracts';
import { CORS_ALLOW_HEADERS, CORS_EXPOSE_HEADERS, NAMESPACE_PATH, NO_ROUTE_HANDLER } from '../shared/config';
import type { Invoker } from '../shared/http/dispatch';

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

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((ok, fail) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => ok(Buffer.concat(chunks)));
    req.on('error', fail);
  });
}

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

const contextFor = (name: string, requestId: string): Context =>
  ({
    functionName: name,
    awsRequestId: requestId,
    getRemainingTimeInMillis: () => 10_000,
  }) as Context;

/**
 * Routes like the HTTP API does: exact route keys from the contracts, everything else (unknown paths,
 * other methods, trailing slashes) to `$default`.
 */
async function dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method === 'OPTIONS') {
    res.writeHead(204, {
      ...CORS,
      'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
      'Access-Control-Allow-Headers': CORS_ALLOW_HEADERS.join(', '),
    });
    res.end();
    return;
  }
  const body = await readBody(req);
  const pathname = new URL(req.url ?? '/', 'http://local').pathname;
  const prefix = NAMESPACE_PATH;
  const below = pathname.startsWith(prefix) ? pathname.slice(prefix.length) : null;
  const found = below === null ? undefined : matchRoute(req.method ?? 'GET', below).match;
  const handlerPath = found?.operation.handler ?? NO_ROUTE_HANDLER;
  const routeKey = found ? `${req.method} ${prefix}${found.operation.path}` : '$default';
  const event = toEvent(req, body, routeKey, found?.pathParameters);
  const result = await (
    await load(handlerPath)
  )(event, contextFor(handlerPath, event.requestContext.requestId));
  res.writeHead(result.statusCode ?? 200, { ...CORS, ...(result.headers as Record<string, string>) });
  res.end(result.body ?? '');
}

export async function startGateway(port: number, host = '127.0.0.1'): Promise<Server> {
  const server = createServer((req, res) => {
    dispatch(req, res).catch((e) => {
      console.error(e);
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({ code: 'rest_internal_error', message: 'Gateway failure.', data: { status: 500 } }),
      );
    });
  });
  await new Promise<void>((ok) => server.listen(port, host, ok));
  return server;
}
