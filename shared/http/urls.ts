import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { config, NAMESPACE, NAMESPACES } from '../config';

/** URLs as the caller sees them: `rest_url`s are built from the API root actually used. */
export interface ApiUrls {
  /** `https://host/cal/events/v1` (no trailing slash). */
  root: string;
  /** Path below the namespace, e.g. `/categories`. */
  path: string;
  /** Query string as received (without `?`). */
  rawQuery: string;
  method: string;
  /** The full request path as received, trailing slash included. */
  rawPath: string;
}

export function urlsOf(event: APIGatewayProxyEventV2): ApiUrls {
  const headers = event.headers ?? {};
  const host = headers['x-forwarded-host'] ?? headers.host ?? event.requestContext?.domainName ?? 'localhost';
  const proto = headers['x-forwarded-proto'] ?? 'https';
  const base = config.apiBaseUrl ?? `${proto}://${host}`;
  const rawPath = event.rawPath ?? '';
  // The namespace the request is below: its root is what rest_urls are built from.
  const namespace = NAMESPACES.find((ns) => new RegExp(`/${ns}(/|$)`).test(rawPath)) ?? NAMESPACE;
  const prefix = `/${namespace}`;
  const at = rawPath.indexOf(prefix);
  const path = (at >= 0 ? rawPath.slice(at + prefix.length) : rawPath).replace(/\/+$/, '');
  return {
    root: `${base}${prefix}`,
    path,
    rawQuery: event.rawQueryString ?? '',
    method: event.requestContext?.http?.method ?? 'GET',
    rawPath,
  };
}

/** `root + path` with the given query (entries whose value is undefined are dropped). */
export function buildUrl(root: string, path: string, query?: URLSearchParams): string {
  const qs = query?.toString();
  return `${root}${path}${qs ? `?${qs}` : ''}`;
}
