import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { handler, setInvoker } from '../../functions/system/no-route';
import { CORS_ALLOW_HEADERS } from '../../shared/config';
import { CORS_ALLOW_ORIGINS_ENV } from '../../shared/http/cors';

/**
 * CORS preflights as the deployed HTTP API delivers them (issue 25): its `$default` route takes every
 * method, OPTIONS included, so a browser's preflight reaches the `$default` function rather than the
 * gateway's own CORS answer, whatever the path. The function must answer 2xx with the CORS headers,
 * or no browser on another origin could send a token, a JSON body or If-Match.
 */
const invoked = vi.fn();
setInvoker(async (...args) => {
  invoked(...args);
  throw new Error('a preflight is never handed to an operation');
});
afterEach(() => {
  vi.unstubAllEnvs();
  invoked.mockClear();
});

function preflightEvent(path: string, origin = 'https://calendar-client.example'): APIGatewayProxyEventV2 {
  const rawPath = `/cal/events/v1${path}`;
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString: '',
    headers: {
      host: 'abc123.execute-api.eu-west-1.amazonaws.com',
      origin,
      'access-control-request-method': 'PUT',
      'access-control-request-headers': 'authorization,content-type,if-match',
    },
    isBase64Encoded: false,
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc123',
      domainName: 'abc123.execute-api.eu-west-1.amazonaws.com',
      domainPrefix: 'abc123',
      http: {
        method: 'OPTIONS',
        path: rawPath,
        protocol: 'HTTP/1.1',
        sourceIp: '203.0.113.9',
        userAgent: 'x',
      },
      requestId: 'gw-req-1',
      routeKey: '$default',
      stage: '$default',
      time: '01/Jun/2026:12:00:00 +0000',
      timeEpoch: 1_780_315_200_000,
    },
  };
}

const CONTEXT = { awsRequestId: 'req-1', getRemainingTimeInMillis: () => 9_000 } as unknown as Context;

describe('a CORS preflight reaching the $default function', () => {
  it.each(['/events/123', '/events', '/events/', '/venues/by-slug/hall', '/', '/nope'])(
    'is answered 204 with the CORS headers on %s, without running an operation',
    async (path) => {
      const res = await handler(preflightEvent(path), CONTEXT);

      expect(res.statusCode).toBe(204);
      expect(res.headers).toMatchObject({ 'Access-Control-Allow-Origin': '*' });
      expect(String(res.headers!['Access-Control-Allow-Methods'])).toMatch(/\bPUT\b/);
      const allowed = String(res.headers!['Access-Control-Allow-Headers']).split(', ');
      for (const h of ['Authorization', 'Content-Type', 'If-Match']) expect(allowed).toContain(h);
      expect(allowed).toEqual([...CORS_ALLOW_HEADERS]);
      expect(String(res.headers!['Access-Control-Expose-Headers'])).toMatch(/X-Cal-Total/);
      // Kept an hour by the browser (issue 38): not a preflight, and an invocation, every few seconds.
      expect(res.headers!['Access-Control-Max-Age']).toBe('3600');
      expect(invoked).not.toHaveBeenCalled();
    },
  );

  it('allows a configured origin by name, and varies on Origin', async () => {
    vi.stubEnv(CORS_ALLOW_ORIGINS_ENV, 'https://calendar.example.org,https://admin.example.org');

    const res = await handler(preflightEvent('/events', 'https://admin.example.org'), CONTEXT);

    expect(res.statusCode).toBe(204);
    expect(res.headers).toMatchObject({
      'Access-Control-Allow-Origin': 'https://admin.example.org',
      Vary: 'Origin',
    });
  });

  it('leaves out Access-Control-Allow-Origin for an origin not configured, which browsers refuse', async () => {
    vi.stubEnv(CORS_ALLOW_ORIGINS_ENV, 'https://calendar.example.org');

    const res = await handler(preflightEvent('/events', 'https://elsewhere.example'), CONTEXT);

    expect(res.statusCode).toBe(204);
    expect(res.headers).not.toHaveProperty('Access-Control-Allow-Origin');
  });
});
