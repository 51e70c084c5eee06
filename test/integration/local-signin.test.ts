import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useStack } from '../support/use-stack';

/**
 * The local stack's sign-in (local/oauth.ts): the authorization code flow with PKCE that the calendar
 * page runs, over HTTP as a browser would, ending with a token the API accepts.
 */
const { api } = await useStack();

const verifier = () => randomBytes(32).toString('base64url');
const challengeOf = (v: string) => createHash('sha256').update(v).digest('base64url');

interface Flow {
  code: string;
  verifier: string;
  redirectUri: string;
}

/** Submits the sign-in form as a user would; returns the code the page gets back. */
async function authorize(o: { role?: string; sub?: string } = {}): Promise<Flow> {
  const v = verifier();
  const redirectUri = `${api.origin}/`;
  const res = await fetch(`${api.origin}/local-auth/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      redirect_uri: redirectUri,
      state: 'st-1',
      code_challenge: challengeOf(v),
      role: o.role ?? 'author',
      sub: o.sub ?? 'ana',
    }),
  });
  expect(res.status).toBe(302);
  const back = new URL(res.headers.get('location')!);
  expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
  expect(back.searchParams.get('state')).toBe('st-1');
  return { code: back.searchParams.get('code')!, verifier: v, redirectUri };
}

function exchange(flow: Flow, change: Record<string, string> = {}) {
  return fetch(`${api.origin}/local-auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: 'calendar-page',
      code: flow.code,
      redirect_uri: flow.redirectUri,
      code_verifier: flow.verifier,
      ...change,
    }),
  });
}

describe('the local sign-in', () => {
  it('tells the page where to sign in', async () => {
    const res = await fetch(`${api.origin}/auth-config.json`);

    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      authorizeUrl: '/local-auth/authorize',
      tokenUrl: '/local-auth/token',
      clientId: 'calendar-page',
      scope: 'openid',
      provider: 'the local stack',
    });
  });

  it('shows a labelled form for a valid authorization request', async () => {
    const q = new URLSearchParams({
      response_type: 'code',
      client_id: 'calendar-page',
      redirect_uri: `${api.origin}/`,
      state: 's',
      code_challenge: challengeOf(verifier()),
      code_challenge_method: 'S256',
    });
    const res = await fetch(`${api.origin}/local-auth/authorize?${q}`);
    const html = await res.text();

    expect(res.status).toBe(200);
    expect(html).toContain('<label for="sub">');
    expect(html).toContain('<label for="role">');
    expect(html).toContain(`value="${q.get('code_challenge')}"`);
  });

  it.each([
    ['without PKCE', { code_challenge: '' }, 'PKCE'],
    ['with a plain PKCE method', { code_challenge_method: 'plain' }, 'PKCE'],
    ['for another client', { client_id: 'other' }, 'client_id'],
    ['returning to another origin', { redirect_uri: 'https://attacker.example/' }, 'this origin'],
  ])('refuses an authorization request %s: 400', async (_name, change, reason) => {
    const q = new URLSearchParams({
      response_type: 'code',
      client_id: 'calendar-page',
      redirect_uri: `${api.origin}/`,
      code_challenge: challengeOf(verifier()),
      code_challenge_method: 'S256',
      ...change,
    });
    const res = await fetch(`${api.origin}/local-auth/authorize?${q}`);

    expect(res.status).toBe(400);
    expect(await res.text()).toContain(reason);
  });

  it('exchanges the code and its verifier for an ID token that the API accepts with its role', async () => {
    const flow = await authorize({ role: 'author', sub: 'ana' });

    const res = await exchange(flow);
    const body = (await res.json()) as { id_token: string; token_type: string; expires_in: number };

    expect(res.status).toBe(200);
    expect(body.token_type).toBe('Bearer');
    expect(body.expires_in).toBe(3600);
    const created = await api.post(
      '/events',
      { title: 'Signed-in event', start_date: '2031-05-01 10:00:00', end_date: '2031-05-01 11:00:00' },
      { token: body.id_token },
    );
    expect(created.status).toBe(201);
    expect(created.body.author).toBe('ana');
  });

  it.each([
    ['a wrong verifier', { code_verifier: 'x'.repeat(43) }],
    ['another redirect_uri', { redirect_uri: 'http://127.0.0.1:1/' }],
    ['another client', { client_id: 'other' }],
    ['an unknown code', { code: 'nope' }],
    ['another grant type', { grant_type: 'password' }],
  ])('refuses an exchange with %s (400, OAuth error); a code presented is spent', async (_name, change) => {
    const flow = await authorize();

    const res = await exchange(flow, change);

    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(
      /^(invalid_grant|unsupported_grant_type)$/,
    );
    // Presented with a wrong detail, the code is gone: a second, right exchange fails too.
    if (!('grant_type' in change) && !('code' in change)) expect((await exchange(flow)).status).toBe(400);
  });

  it('takes a code once', async () => {
    const flow = await authorize();

    expect((await exchange(flow)).status).toBe(200);
    const again = await exchange(flow);

    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it.each([
    ['an unknown role', { role: 'root' }],
    ['an empty user name', { sub: ' ' }],
  ])('refuses a sign-in form with %s: 400, no code', async (_name, change) => {
    const res = await fetch(`${api.origin}/local-auth/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        redirect_uri: `${api.origin}/`,
        code_challenge: challengeOf(verifier()),
        role: 'editor',
        sub: 'ana',
        ...change,
      }),
    });

    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });
});
