import { createClient } from '../../client/src';
import type { Role } from '../../shared/contracts/types';
import { startLocalStack } from '../../local/stack';
import { signLocalToken } from '../../local/token';
import { checkAgainstDoc } from './doc-check';

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  body?: unknown;
  /** Send the body form-encoded instead of JSON. */
  form?: Record<string, string>;
  token?: string;
  headers?: Record<string, string>;
  raw?: string;
}

/** A valid token of the local issuer for `role` (subject `sub`, default `user-<role>`), signed at the clock's now. */
export const signToken = (role: Role, sub = `user-${role}`): Promise<string> =>
  signLocalToken(process.env.AUTH_LOCAL_SECRET!, role, sub);

/**
 * The local stack for one test file: a fresh table in the shared embedded DynamoDB and the local
 * gateway on a free port, serving the real handlers. Every response is checked against /doc.
 */
export async function startStack(
  options: { signed?: Array<{ role: Role; sub: string; token: string }> } = {},
) {
  const local = await startLocalStack({
    dynamo: { endpoint: process.env.DYNAMODB_ENDPOINT! },
    table: { name: process.env.TABLE_NAME! },
    gateway: { port: 0 },
  });
  const origin = local.origin!;
  const base = local.base!;
  // Tokens signed before the stack started (by useStack) are the ones `token()` hands out for them.
  const tokens = new Map<string, string>((options.signed ?? []).map((t) => [`${t.role}:${t.sub}`, t.token]));

  /** fetch, with every answer checked against /doc before the client reads it. */
  async function checkedFetch(url: string, init: RequestInit): Promise<Response> {
    const res = await fetch(url, { ...init, redirect: 'manual' });
    const text = await res.text();
    const json = res.headers.get('content-type')?.includes('json');
    const body = text && json ? JSON.parse(text) : text || undefined;
    // Another namespace (cal/tickets/v1): its operations are in the same /doc, with their own server;
    // its index is described by itself only.
    const other = /^\/cal\/(?!events\/)\w+\/v\d+/.exec(url.slice(origin.length))?.[0];
    const path = other ? url.slice(origin.length + other.length) : url.slice(base.length);
    if (other && !path.replace(/^\/?(\?.*)?$/, '')) return new Response(text || null, res);
    await checkAgainstDoc(base, init.method!, path, {
      status: res.status,
      headers: res.headers,
      body,
    });
    return new Response(text || null, { status: res.status, headers: res.headers });
  }
  /** The typed client (client/) on this stack: calls by operation, error answers thrown as CalApiError. */
  const client = createClient({ baseUrl: base, fetch: checkedFetch });

  async function call<T = any>(method: string, path: string, o: CallOptions = {}): Promise<Reply<T>> {
    const reply = await client.send(method, path, o);
    return { status: reply.status, headers: reply.headers, body: reply.data as T };
  }

  return {
    base,
    origin,
    client,
    call,
    get: <T = any>(path: string, o?: CallOptions) => call<T>('GET', path, o),
    post: <T = any>(path: string, body?: unknown, o?: CallOptions) => call<T>('POST', path, { ...o, body }),
    put: <T = any>(path: string, body?: unknown, o?: CallOptions) => call<T>('PUT', path, { ...o, body }),
    patch: <T = any>(path: string, body?: unknown, o?: CallOptions) => call<T>('PATCH', path, { ...o, body }),
    del: <T = any>(path: string, o?: CallOptions) => call<T>('DELETE', path, o),
    /** A valid token of the local issuer for `role` (subject `sub`, default `user-<role>`). */
    async token(role: Role, sub = `user-${role}`): Promise<string> {
      const key = `${role}:${sub}`;
      if (!tokens.has(key)) tokens.set(key, await signToken(role, sub));
      return tokens.get(key)!;
    },
    close: () => local.stop(),
  };
}

export type Stack = Awaited<ReturnType<typeof startStack>>;
