import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';

/**
 * Conditional GETs (RFC 9110 §13): a 200 whose ETag matches If-None-Match, or, when the request has no
 * If-None-Match, whose Last-Modified is not after If-Modified-Since, becomes a 304 without a body. It
 * keeps the caching headers and the API headers, and drops Content-Type.
 */

type Headers = Record<string, string | number | boolean | undefined>;

function headerOf(headers: Headers | undefined, name: string): string | undefined {
  const key = Object.keys(headers ?? {}).find((k) => k.toLowerCase() === name);
  const v = key === undefined ? undefined : headers![key];
  return v === undefined ? undefined : String(v);
}

/** Weak comparison (§8.8.3.2): the opaque tags are equal, W/ or not; `*` matches any current entity. */
function matchesAny(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = (tag: string) => tag.replace(/^W\//, '');
  return (ifNoneMatch.match(/(?:W\/)?"[^"]*"/g) ?? []).some((tag) => opaque(tag) === opaque(etag));
}

/** Whether the response the request would get is one the caller already holds. */
export function isNotModified(request: Headers | undefined, response: Headers | undefined): boolean {
  const etag = headerOf(response, 'etag');
  const ifNoneMatch = headerOf(request, 'if-none-match');
  if (ifNoneMatch !== undefined) return etag !== undefined && matchesAny(ifNoneMatch, etag);
  const since = Date.parse(headerOf(request, 'if-modified-since') ?? '');
  const modified = Date.parse(headerOf(response, 'last-modified') ?? '');
  return !Number.isNaN(since) && !Number.isNaN(modified) && modified <= since;
}

/** Middleware for GET handlers that set ETag / Last-Modified: answers 304 when the caller is up to date. */
export function conditionalGet(): middy.MiddlewareObj<
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  Error,
  Context
> {
  return {
    after: async (request) => {
      const response = request.response;
      if (!response || (response.statusCode ?? 200) !== 200) return;
      if (!isNotModified(request.event.headers, response.headers)) return;
      const headers = Object.fromEntries(
        Object.entries(response.headers ?? {}).filter(
          ([k]) => !['content-type', 'content-length'].includes(k.toLowerCase()),
        ),
      );
      request.response = { statusCode: 304, headers, body: '' };
    },
  };
}
