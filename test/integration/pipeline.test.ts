import { SignJWT, UnsecuredJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../shared/contracts/types';
import { LOCAL_ISSUER } from '../../shared/http/auth';
import { useStack } from '../support/use-stack';

/**
 * The cross-cutting behaviour every route shares, through HTTP: routing, transport, authentication,
 * the order of checks (decisions §3), authorization and the headers of every response.
 */
const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });
let existing: { id: number };

const secret = () => new TextEncoder().encode(process.env.AUTH_LOCAL_SECRET!);

/** A token signed like the local issuer's, with whatever claims, issuer, key or expiry the test needs. */
async function sign(
  claims: Record<string, unknown>,
  o: { issuer?: string; key?: Uint8Array; expires?: string | number; sub?: string | null } = {},
): Promise<string> {
  const jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(o.issuer ?? LOCAL_ISSUER)
    .setIssuedAt();
  if (o.sub !== null) jwt.setSubject(o.sub ?? 'user-test');
  jwt.setExpirationTime(o.expires ?? '1h');
  return jwt.sign(o.key ?? secret());
}

const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** Raw fetch for responses /doc does not describe: unknown routes, wrong methods, redirects, preflight. */
const raw = (path: string, init: RequestInit = {}) =>
  fetch(`${api.base}${path}`, { redirect: 'manual', ...init });

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read loosely, as in test/support/stack.ts
const json = async (res: Response): Promise<any> => res.json();

/** Everything a bad write might touch: it must read the same before and after. */
async function snapshot() {
  const [categories, tags] = await Promise.all([
    api.get('/categories?hide_empty=false&per_page=50'),
    api.get('/tags?hide_empty=false&per_page=50'),
  ]);
  return { categories: categories.body, tags: tags.body };
}

beforeAll(async () => {
  existing = (
    await api.post('/categories', { name: 'Existing', description: 'untouched' }, { token: editor })
  ).body;
  await api.post('/tags', { name: 'Existing Tag' }, { token: editor });
});

const NO_ROUTE = {
  code: 'rest_no_route',
  message: 'No route was found matching the URL and request method.',
};
const FORBIDDEN = 'Sorry, you are not allowed to do that.';

describe('routing', () => {
  it('answers an unknown path with 404 rest_no_route (sample 217)', async () => {
    const res = await raw('/nope');

    expect(res.status).toBe(404);
    expect(await json(res)).toEqual({ ...NO_ROUTE, data: { status: 404 } });
  });

  it('answers an unknown path below a known one with 404', async () => {
    const res = await raw(`/categories/${existing.id}/children`);

    expect(res.status).toBe(404);
    expect((await json(res)).code).toBe('rest_no_route');
  });

  it('answers a path outside the namespace with 404 rest_no_route', async () => {
    const res = await fetch(`${api.origin}/cal/events/v2/categories`);

    expect(res.status).toBe(404);
    expect((await json(res)).code).toBe('rest_no_route');
  });

  it.each([
    ['DELETE', '/categories', 'GET, POST'],
    ['PUT', '/tags', 'GET, POST'],
    ['DELETE', '/events', 'GET, POST'],
    ['PUT', '/', 'GET'],
    ['POST', '/doc', 'GET'],
  ])('answers %s %s with 405 rest_no_route and Allow: %s', async (method, path, allow) => {
    const res = await raw(path === '/' ? '' : path, {
      method,
      headers: { authorization: `Bearer ${editor}` },
    });

    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe(allow);
    expect(await json(res)).toEqual({ ...NO_ROUTE, data: { status: 405 } });
  });

  // Decisions §1: a trailing slash is ignored (this replaced the former 308 redirect).
  it('answers a trailing slash exactly as the URL without it, with no redirect', async () => {
    const [slashed, plain] = await Promise.all([raw('/categories/'), raw('/categories')]);

    expect(slashed.status).toBe(200);
    expect(slashed.headers.get('location')).toBeNull();
    expect(await json(slashed)).toEqual(await json(plain));
  });

  it('keeps the query string with a trailing slash', async () => {
    const res = await raw(`/categories/${existing.id}/?context=view&x=1`);

    expect(res.status).toBe(200);
    expect(res.headers.get('location')).toBeNull();
    expect((await json(res)).id).toBe(existing.id);
  });

  it('takes a write with a trailing slash as without it', async () => {
    const before = await snapshot();

    const res = await raw('/categories/', {
      method: 'POST',
      headers: { authorization: `Bearer ${editor}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Via Slash' }),
    });

    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toMatch(new RegExp(`^${api.base}/categories/\\d+$`));
    expect((await json(res)).name).toBe('Via Slash');
    const after = await snapshot();
    expect(after.tags).toEqual(before.tags);
    expect(after.categories.total).toBe(before.categories.total + 1);
  });

  it('answers an unknown path with a trailing slash with 404, not a redirect', async () => {
    const res = await raw('/nope/');

    expect(res.status).toBe(404);
    expect(res.headers.get('location')).toBeNull();
  });

  it('serves a slashed URL itself, without redirecting', async () => {
    const res = await fetch(`${api.base}/categories/`);

    expect(res.status).toBe(200);
    expect(res.redirected).toBe(false);
    expect(res.url).toBe(`${api.base}/categories/`);
  });
});

describe('request bodies', () => {
  const post = (body: string | Buffer, contentType: string, token: string | undefined = editor) =>
    raw('/categories', {
      method: 'POST',
      headers: { 'content-type': contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body,
    });

  it('answers malformed JSON with 400 rest_invalid_json and creates nothing', async () => {
    const before = await snapshot();

    const res = await api.call('POST', '/categories', {
      raw: '{"name": "Broken',
      headers: { 'content-type': 'application/json' },
      token: editor,
    });

    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'rest_invalid_json',
      message: expect.any(String),
      data: { status: 400 },
    });
    expect(await snapshot()).toEqual(before);
  });

  it.each(['[{"name": "In An Array"}]', '"just a string"', 'null', '42'])(
    'answers the JSON %s (not an object) with 400 rest_invalid_json',
    async (body) => {
      const res = await api.call('POST', '/categories', {
        raw: body,
        headers: { 'content-type': 'application/json' },
        token: editor,
      });

      expect(res.status).toBe(400);
      expect(res.body.code).toBe('rest_invalid_json');
    },
  );

  it('accepts a JSON content type with a charset', async () => {
    const res = await api.call('POST', '/categories', {
      raw: JSON.stringify({ name: 'With Charset' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
      token: editor,
    });

    expect(res.status).toBe(201);
  });

  it('answers a body over 1 MiB with 413 and creates nothing', async () => {
    const before = await snapshot();
    const body = JSON.stringify({ name: 'Too Big', description: 'x'.repeat(1024 * 1024) });

    const res = await post(body, 'application/json');

    expect(res.status).toBe(413);
    expect(await json(res)).toEqual({
      code: 'rest_payload_too_large',
      message: expect.any(String),
      data: { status: 413 },
    });
    expect(await snapshot()).toEqual(before);
  });

  it('reads a body of exactly 1 MiB (and then applies the field limits)', async () => {
    const prefix = '{"name":"Exactly One MiB","description":"';
    const body = `${prefix}${'x'.repeat(1024 * 1024 - prefix.length - 2)}"}`;

    const res = await post(body, 'application/json');

    expect(Buffer.byteLength(body)).toBe(1024 * 1024);
    expect(res.status).toBe(400);
    expect((await json(res)).data.params).toHaveProperty('description');
  });

  it('answers a text/plain body with 415 and creates nothing', async () => {
    const before = await snapshot();

    const res = await post('name=Plain', 'text/plain');

    expect(res.status).toBe(415);
    expect(await json(res)).toEqual({
      code: 'rest_unsupported_media_type',
      message: expect.any(String),
      data: { status: 415 },
    });
    expect(await snapshot()).toEqual(before);
  });

  it('answers an XML body with 415', async () => {
    const res = await post('<name>X</name>', 'application/xml');

    expect(res.status).toBe(415);
  });

  it('treats an empty body as no fields', async () => {
    const res = await post('', 'text/plain');

    expect(res.status).toBe(400);
    expect((await json(res)).code).toBe('rest_missing_callback_param');
  });
});

describe('authentication', () => {
  it.each([
    ['POST', '/categories', { name: 'Anonymous' }],
    ['POST', '/tags', { name: 'Anonymous' }],
    ['PATCH', '/categories/{id}', { name: 'Anonymous' }],
    ['PUT', '/categories/{id}', { name: 'Anonymous' }],
    ['POST', '/categories/{id}', { name: 'Anonymous' }],
    ['DELETE', '/categories/{id}', undefined],
  ])('answers %s %s without a token with 401 rest_forbidden (sample 210)', async (method, path, body) => {
    const before = await snapshot();

    const res = await api.call(method, path.replace('{id}', String(existing.id)), { body });

    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'rest_forbidden', message: FORBIDDEN, data: { status: 401 } });
    expect(await snapshot()).toEqual(before);
  });

  const badTokens: Array<[string, () => Promise<string>]> = [
    ['a malformed token', async () => 'Bearer not-a-jwt'],
    ['a scheme other than Bearer', async () => 'Basic dXNlcjpwYXNz'],
    ['an empty Bearer', async () => 'Bearer '],
    [
      'an expired token',
      async () =>
        `Bearer ${await sign({ 'cal:role': 'editor' }, { expires: Math.floor(Date.now() / 1000) - 60 })}`,
    ],
    [
      'a token whose payload was changed after signing',
      async () => {
        const [header, , signature] = (await sign({ 'cal:role': 'subscriber' })).split('.');
        const payload = b64url({
          'cal:role': 'administrator',
          sub: 'user-test',
          iss: LOCAL_ISSUER,
          exp: Math.floor(Date.now() / 1000) + 3600,
        });
        return `Bearer ${header}.${payload}.${signature}`;
      },
    ],
    [
      'a token with another token’s signature',
      async () => {
        const [header, payload] = (await sign({ 'cal:role': 'editor' })).split('.');
        const [, , signature] = (await sign({ 'cal:role': 'editor' }, { sub: 'someone-else' })).split('.');
        return `Bearer ${header}.${payload}.${signature}`;
      },
    ],
    [
      'a token signed with another secret',
      async () =>
        `Bearer ${await sign({ 'cal:role': 'editor' }, { key: new TextEncoder().encode('another-secret-entirely') })}`,
    ],
    [
      'a token of a foreign issuer',
      async () => `Bearer ${await sign({ 'cal:role': 'editor' }, { issuer: 'https://issuer.example' })}`,
    ],
    [
      'an unsigned token (alg none)',
      async () =>
        `Bearer ${new UnsecuredJWT({ 'cal:role': 'editor' }).setIssuer(LOCAL_ISSUER).setSubject('x').setExpirationTime('1h').encode()}`,
    ],
    [
      'a token without a subject',
      async () => `Bearer ${await sign({ 'cal:role': 'editor' }, { sub: null })}`,
    ],
  ];

  it.each(badTokens)(
    'answers a write with %s with 401 rest_invalid_token and writes nothing',
    async (_label, header) => {
      const before = await snapshot();

      const res = await api.post(
        '/categories',
        { name: 'Bad Token' },
        { headers: { authorization: await header() } },
      );

      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        code: 'rest_invalid_token',
        message: expect.any(String),
        data: { status: 401 },
      });
      expect(await snapshot()).toEqual(before);
    },
  );

  it('answers a read with a bad token with 401 too', async () => {
    const res = await api.get('/categories', { headers: { authorization: 'Bearer not-a-jwt' } });

    expect(res.status).toBe(401);
    expect(res.body.code).toBe('rest_invalid_token');
  });

  it('says why an expired token is refused', async () => {
    const token = await sign({ 'cal:role': 'editor' }, { expires: Math.floor(Date.now() / 1000) - 60 });

    const res = await api.post('/categories', { name: 'Late' }, { token });

    expect(res.body.message).toMatch(/expired/);
  });

  it('takes the role from the cognito:groups claim', async () => {
    const token = await sign({ 'cognito:groups': ['editor'] });

    const res = await api.post('/categories', { name: 'Via Cognito Group' }, { token });

    expect(res.status).toBe(201);
  });

  it('takes the highest role among several cognito:groups', async () => {
    const token = await sign({ 'cognito:groups': ['subscriber', 'administrator', 'contributor'] });

    const res = await api.post('/tags', { name: 'Highest Group' }, { token });

    expect(res.status).toBe(201);
  });

  it('refuses a cognito:groups role below editor with 403', async () => {
    const token = await sign({ 'cognito:groups': ['contributor'] });

    const res = await api.post('/categories', { name: 'Low Group' }, { token });

    expect(res.status).toBe(403);
  });

  it('treats a token without a role claim as a subscriber', async () => {
    const token = await sign({});

    const res = await api.post('/categories', { name: 'No Role' }, { token });

    expect(res.status).toBe(403);
    expect(res.body.code).toBe('rest_forbidden');
  });

  it('ignores role names it does not know', async () => {
    const token = await sign({ 'cognito:groups': ['superuser'], 'cal:role': 'root' });

    const res = await api.post('/categories', { name: 'Unknown Role' }, { token });

    expect(res.status).toBe(403);
  });
});

describe('order of checks', () => {
  it('answers an anonymous write with an invalid body with 401, not 400', async () => {
    const res = await api.post('/categories', { description: 'no name', parent: 'foo' });

    expect(res.status).toBe(401);
    expect(res.body.code).toBe('rest_forbidden');
  });

  it('answers an anonymous write with malformed JSON with 401, not 400', async () => {
    const res = await api.call('POST', '/categories', {
      raw: '{oops',
      headers: { 'content-type': 'application/json' },
    });

    expect(res.status).toBe(401);
  });

  it('answers an anonymous write with an unsupported body with 401, not 415', async () => {
    const res = await api.call('POST', '/tags', { raw: 'x', headers: { 'content-type': 'text/plain' } });

    expect(res.status).toBe(401);
  });

  it('answers an anonymous update of an unknown ID with 401, not 404', async () => {
    const res = await api.patch('/categories/999999', { name: 'x' });

    expect(res.status).toBe(401);
    expect(res.body.code).toBe('rest_forbidden');
  });

  it('answers an anonymous delete of an unknown ID with 401, not 404', async () => {
    const res = await api.del('/tags/999999');

    expect(res.status).toBe(401);
  });

  it('answers a bad token with an invalid body with 401 rest_invalid_token', async () => {
    const res = await api.post(
      '/categories',
      { name: '' },
      { headers: { authorization: 'Bearer not-a-jwt' } },
    );

    expect(res.status).toBe(401);
    expect(res.body.code).toBe('rest_invalid_token');
  });

  it.each<Role>(['subscriber', 'contributor', 'author'])(
    'answers a %s creating a category with 403 rest_forbidden',
    async (role) => {
      const before = await snapshot();

      const res = await api.post('/categories', { name: `By ${role}` }, { token: await api.token(role) });

      expect(res.status).toBe(403);
      expect(res.body).toEqual({ code: 'rest_forbidden', message: FORBIDDEN, data: { status: 403 } });
      expect(await snapshot()).toEqual(before);
    },
  );

  it.each<[Role, string, string]>([
    ['contributor', 'POST', '/tags'],
    ['contributor', 'PATCH', '/categories/{id}'],
    ['author', 'PUT', '/categories/{id}'],
    ['subscriber', 'DELETE', '/categories/{id}'],
    ['author', 'DELETE', '/categories/{id}'],
  ])('answers a %s on %s %s with 403 and changes nothing', async (role, method, path) => {
    const before = await snapshot();

    const res = await api.call(method, path.replace('{id}', String(existing.id)), {
      body: method === 'DELETE' ? undefined : { name: 'Changed', description: 'changed' },
      token: await api.token(role),
    });

    expect(res.status).toBe(403);
    expect(res.body.code).toBe('rest_forbidden');
    expect(await snapshot()).toEqual(before);
  });

  it('answers a contributor with an invalid body with 400: validation comes before authorization', async () => {
    const res = await api.post(
      '/categories',
      { name: '', parent: 'foo' },
      { token: await api.token('contributor') },
    );

    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
  });

  it('answers a subscriber with a missing name with 400 rest_missing_callback_param', async () => {
    const res = await api.post('/tags', { description: 'x' }, { token: await api.token('subscriber') });

    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_missing_callback_param');
  });

  it('answers a contributor with malformed JSON with 400 rest_invalid_json', async () => {
    const res = await api.call('POST', '/categories', {
      raw: '{oops',
      headers: { 'content-type': 'application/json' },
      token: await api.token('contributor'),
    });

    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_json');
  });

  it('answers a contributor updating an unknown ID with 403: existence is checked after authorization', async () => {
    const res = await api.patch(
      '/categories/999999',
      { name: 'x' },
      { token: await api.token('contributor') },
    );

    expect(res.status).toBe(403);
  });

  it.each<Role>(['editor', 'administrator'])('lets an %s write categories', async (role) => {
    const res = await api.post(
      '/categories',
      { name: `Written By ${role}` },
      { token: await api.token(role) },
    );

    expect(res.status).toBe(201);
  });
});

describe('headers of every response', () => {
  const cases: Array<[string, () => Promise<{ status: number; headers: Headers }>, number]> = [
    ['a list', () => api.get('/categories'), 200],
    ['a single read', () => api.get(`/categories/${existing.id}`), 200],
    ['a create', () => api.post('/tags', { name: 'Header Check' }, { token: editor }), 201],
    ['a validation error', () => api.get('/categories?page=0'), 400],
    ['a missing token', () => api.post('/tags', { name: 'x' }), 401],
    ['a bad token', () => api.post('/tags', { name: 'x' }, { headers: { authorization: 'Bearer x' } }), 401],
    [
      'a forbidden write',
      async () => api.post('/tags', { name: 'x' }, { token: await api.token('author') }),
      403,
    ],
    ['a missing record', () => api.get('/tags/999999'), 404],
    ['an unknown route', () => raw('/nope'), 404],
    ['a wrong method', () => raw('/categories', { method: 'DELETE' }), 405],
    ['a trailing slash', () => raw('/categories/'), 200],
    [
      'a body too large',
      () =>
        raw('/tags', {
          method: 'POST',
          headers: { authorization: `Bearer ${editor}`, 'content-type': 'application/json' },
          body: 'x'.repeat(1024 * 1024 + 1),
        }),
      413,
    ],
    [
      'an unsupported body',
      () =>
        raw('/tags', {
          method: 'POST',
          headers: { authorization: `Bearer ${editor}`, 'content-type': 'text/plain' },
          body: 'x',
        }),
      415,
    ],
  ];

  it.each(cases)('carries X-Cal-API-Version and X-Cal-API-Root on %s', async (_label, send, status) => {
    const res = await send();

    expect(res.status).toBe(status);
    expect(res.headers.get('x-cal-api-version')).toBe('v1');
    expect(res.headers.get('x-cal-api-root')).toBe(`${api.base}/`);
  });

  it('answers JSON', async () => {
    const res = await raw('/nope');

    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });
});

describe('CORS', () => {
  it('answers a preflight with 204 and the CORS headers', async () => {
    const res = await raw('/categories', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://calendar-client.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });

    expect(res.status).toBe(204);
    expect(['*', 'https://calendar-client.example']).toContain(
      res.headers.get('access-control-allow-origin'),
    );
    expect(res.headers.get('access-control-allow-methods')).toMatch(/POST/);
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toMatch(/authorization/);
  });

  it('answers a preflight for any path, even one that is not a route', async () => {
    const res = await raw('/nope', {
      method: 'OPTIONS',
      headers: { origin: 'https://x.example', 'access-control-request-method': 'GET' },
    });

    expect(res.status).toBe(204);
  });

  it('allows the origin on a real response and exposes the paging headers', async () => {
    const res = await raw('/categories', { headers: { origin: 'https://calendar-client.example' } });

    expect(['*', 'https://calendar-client.example']).toContain(
      res.headers.get('access-control-allow-origin'),
    );
    expect(res.headers.get('access-control-expose-headers')).toMatch(/X-Cal-Total/);
  });
});
