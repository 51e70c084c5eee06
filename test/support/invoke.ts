import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';

type Handler = (e: APIGatewayProxyEventV2, c: Context) => Promise<APIGatewayProxyStructuredResultV2>;

export interface InvokeOptions {
  body?: unknown;
  query?: string;
  token?: string;
  pathParameters?: Record<string, string>;
  context?: Partial<Context>;
  /** More request headers (lower-case names, as API Gateway passes them). */
  headers?: Record<string, string>;
}

/** Calls an exported Lambda handler with the API Gateway (payload 2.0) event the gateway would build. */
export async function invoke(fn: unknown, method: string, path: string, o: InvokeOptions = {}) {
  const rawPath = `/cal/events/v1${path}`;
  const headers: Record<string, string> = { host: 'api.test', 'x-forwarded-proto': 'https' };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  if (o.body !== undefined) headers['content-type'] = 'application/json';
  Object.assign(headers, o.headers);
  const event = {
    version: '2.0',
    routeKey: `${method} ${rawPath}`,
    rawPath,
    rawQueryString: o.query ?? '',
    headers,
    pathParameters: o.pathParameters,
    body: o.body === undefined ? undefined : JSON.stringify(o.body),
    isBase64Encoded: false,
    requestContext: {
      accountId: 'test',
      apiId: 'test',
      domainName: 'api.test',
      domainPrefix: 'api',
      http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
      requestId: 'gw-req-1',
      routeKey: `${method} ${rawPath}`,
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
    },
  } as APIGatewayProxyEventV2;
  const res = await (fn as Handler)(event, (o.context ?? { awsRequestId: 'lambda-req-1' }) as Context);
  const text = String(res.body);
  return { status: res.statusCode, headers: res.headers ?? {}, text, body: JSON.parse(text) };
}
