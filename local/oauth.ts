import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ROLES, type Role } from '../shared/domain/roles';
import type { SignInConfig } from '../web/src/signin-config';
import { readBody } from './request-body';
import { signLocalToken } from './token';

/**
 * The local stack's sign-in: the same OAuth 2.0 authorization code flow with PKCE that the calendar page
 * runs against Cognito's hosted sign-in when deployed (infra/site.ts), with the local issuer's tokens.
 * Whoever reaches the local gateway may pick any role, as `npm run token` allows: it is a developer's
 * stack, bound to 127.0.0.1 by default.
 *
 *   GET  /auth-config.json        where the page signs in (deployed: written by the CDK stack)
 *   GET  /local-auth/authorize    a form: user name and role
 *   POST /local-auth/authorize    issues a one-time code, back to the page's redirect_uri
 *   POST /local-auth/token        code + code_verifier → id_token
 */
const CLIENT_ID = 'calendar-page';
const CODE_TTL_MS = 60_000;
const TOKEN_LIFETIME_S = 3600;

interface Grant {
  challenge: string;
  redirectUri: string;
  role: Role;
  sub: string;
  expires: number;
}
const grants = new Map<string, Grant>();

const base64url = (b: Buffer) => b.toString('base64url');
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const readForm = async (req: IncomingMessage) => new URLSearchParams((await readBody(req)).toString('utf8'));

function send(res: ServerResponse, status: number, type: string, body: string, extra = {}): void {
  res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', ...extra });
  res.end(body);
}

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
label{display:block;margin-top:1rem;font-weight:600}input,select,button{font:inherit;padding:.4rem;width:100%;box-sizing:border-box}
button{margin-top:1.5rem;background:#1d4ed8;color:#fff;border:0;border-radius:4px;cursor:pointer}</style></head>
<body><main>${body}</main></body></html>`;

const refusal = (res: ServerResponse, reason: string) =>
  send(
    res,
    400,
    'text/html; charset=UTF-8',
    page(
      'Sign-in refused',
      `<h1>Sign-in refused</h1><p>${escape(reason)}</p><p><a href="/">Back to the calendar</a></p>`,
    ),
  );

/** Why an authorization request cannot be served, or null. The page must come back to this origin. */
function authorizeProblem(q: URLSearchParams, host: string | undefined): string | null {
  if (q.get('response_type') !== 'code') return 'response_type must be "code".';
  if (q.get('client_id') !== CLIENT_ID) return `client_id must be "${CLIENT_ID}".`;
  if (q.get('code_challenge_method') !== 'S256' || !/^[\w-]{43}$/.test(q.get('code_challenge') ?? ''))
    return 'A PKCE code_challenge (S256) is required.';
  let redirect: URL;
  try {
    redirect = new URL(q.get('redirect_uri') ?? '');
  } catch {
    return 'redirect_uri must be an absolute URL.';
  }
  if (redirect.host !== host) return 'redirect_uri must be on this origin.';
  return null;
}

function authorizeForm(res: ServerResponse, q: URLSearchParams): void {
  const hidden = ['redirect_uri', 'state', 'code_challenge']
    .map((k) => `<input type="hidden" name="${k}" value="${escape(q.get(k) ?? '')}">`)
    .join('');
  const roles = [...ROLES]
    .reverse()
    .map((r) => `<option value="${r}"${r === 'editor' ? ' selected' : ''}>${r}</option>`)
    .join('');
  send(
    res,
    200,
    'text/html; charset=UTF-8',
    page(
      'Sign in to the local calendar',
      `<h1>Sign in to the local calendar</h1>
<p>The local stack trusts whoever reaches it: choose who to be. Deployed, this is Cognito's sign-in.</p>
<form method="post" action="/local-auth/authorize">${hidden}
<label for="sub">User name</label><input id="sub" name="sub" value="local-user" required maxlength="64" autocomplete="username">
<label for="role">Role</label><select id="role" name="role">${roles}</select>
<button type="submit">Sign in</button></form>`,
    ),
  );
}

async function authorize(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const form = await readForm(req);
  const role = form.get('role') as Role;
  const sub = (form.get('sub') ?? '').trim();
  const problem = authorizeProblem(
    new URLSearchParams({
      response_type: 'code',
      client_id: CLIENT_ID,
      code_challenge_method: 'S256',
      code_challenge: form.get('code_challenge') ?? '',
      redirect_uri: form.get('redirect_uri') ?? '',
    }),
    req.headers.host,
  );
  if (problem) return refusal(res, problem);
  if (!ROLES.includes(role)) return refusal(res, `role must be one of ${ROLES.join(', ')}.`);
  if (!sub || sub.length > 64) return refusal(res, 'A user name of 1 to 64 characters is required.');
  for (const [c, g] of grants) if (g.expires < Date.now()) grants.delete(c);
  const code = base64url(randomBytes(24));
  grants.set(code, {
    challenge: form.get('code_challenge')!,
    redirectUri: form.get('redirect_uri')!,
    role,
    sub,
    expires: Date.now() + CODE_TTL_MS,
  });
  const back = new URL(form.get('redirect_uri')!);
  back.searchParams.set('code', code);
  if (form.get('state')) back.searchParams.set('state', form.get('state')!);
  res.writeHead(302, { Location: back.href, 'Cache-Control': 'no-store' });
  res.end();
}

/** RFC 6749 §5.2 errors, as JSON. */
const tokenError = (res: ServerResponse, error: string, description: string) =>
  send(res, 400, 'application/json', JSON.stringify({ error, error_description: description }));

async function token(req: IncomingMessage, res: ServerResponse, secret: string): Promise<void> {
  const form = await readForm(req);
  if (form.get('grant_type') !== 'authorization_code')
    return tokenError(res, 'unsupported_grant_type', 'Only authorization_code is supported.');
  const code = form.get('code') ?? '';
  const grant = grants.get(code);
  grants.delete(code); // one use, whatever the outcome
  if (!grant || grant.expires < Date.now())
    return tokenError(res, 'invalid_grant', 'The code is unknown, used or expired.');
  if (form.get('client_id') !== CLIENT_ID || form.get('redirect_uri') !== grant.redirectUri)
    return tokenError(res, 'invalid_grant', 'client_id or redirect_uri differ from the authorization.');
  const verifier = form.get('code_verifier') ?? '';
  if (base64url(createHash('sha256').update(verifier).digest()) !== grant.challenge)
    return tokenError(res, 'invalid_grant', 'The code_verifier does not match the code_challenge.');
  const idToken = await signLocalToken(secret, grant.role, grant.sub, `${TOKEN_LIFETIME_S}s`);
  send(
    res,
    200,
    'application/json',
    JSON.stringify({ id_token: idToken, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_S }),
  );
}

/** Answers the local sign-in's paths; returns whether the request was one of them. */
export function serveLocalSignIn(req: IncomingMessage, res: ServerResponse): boolean {
  const secret = process.env.AUTH_LOCAL_SECRET;
  const { pathname, searchParams } = new URL(req.url ?? '/', 'http://local');
  const method = req.method ?? 'GET';
  if (!secret) return false;
  if (pathname === '/auth-config.json' && method === 'GET') {
    const config: SignInConfig = {
      authorizeUrl: '/local-auth/authorize',
      tokenUrl: '/local-auth/token',
      clientId: CLIENT_ID,
      scope: 'openid',
      provider: 'the local stack',
    };
    send(res, 200, 'application/json', JSON.stringify(config));
    return true;
  }
  if (pathname === '/local-auth/authorize' && method === 'GET') {
    const problem = authorizeProblem(searchParams, req.headers.host);
    if (problem) refusal(res, problem);
    else authorizeForm(res, searchParams);
    return true;
  }
  // Only a broken request stream or signing key gets here: logged, and nothing of it in the answer.
  const fail = (e: unknown) => {
    console.error(e);
    send(res, 500, 'text/plain; charset=UTF-8', 'The local sign-in failed: see the output of npm start.');
  };
  if (pathname === '/local-auth/authorize' && method === 'POST') {
    authorize(req, res).catch(fail);
    return true;
  }
  if (pathname === '/local-auth/token' && method === 'POST') {
    token(req, res, secret).catch(fail);
    return true;
  }
  return false;
}
