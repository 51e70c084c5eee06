/**
 * Sign-in through an OAuth 2.0 authorization server: the authorization code flow with PKCE (RFC 7636),
 * as a public client that keeps no secret. Deployed, the server is Cognito's hosted sign-in and
 * /auth-config.json is written by the CDK stack; on the local stack both are served by local/oauth.ts.
 * Without /auth-config.json (an external OIDC issuer) the page only takes a pasted token.
 */
import { token } from './api';
import type { SignInConfig } from './signin-config';

export type { SignInConfig };

/** What the page keeps across the round trip to the sign-in: the PKCE verifier, the state, its URL. */
interface Pending {
  state: string;
  verifier: string;
  back: string;
}
const PENDING_KEY = 'cal-signin';

/** The page's own address is the callback the client is registered with. */
const redirectUri = () => `${location.origin}/`;

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const randomString = (bytes: number) => base64url(crypto.getRandomValues(new Uint8Array(bytes)));

export async function loadSignInConfig(): Promise<SignInConfig | null> {
  try {
    const r = await fetch('/auth-config.json', { headers: { accept: 'application/json' } });
    if (!r.ok) return null;
    const c = (await r.json()) as Partial<SignInConfig>;
    return c.authorizeUrl && c.tokenUrl && c.clientId ? (c as SignInConfig) : null;
  } catch {
    return null;
  }
}

/** Leaves for the sign-in page; the filters and view in the URL come back with the user. */
export async function beginSignIn(config: SignInConfig): Promise<void> {
  const pending: Pending = {
    state: randomString(16),
    verifier: randomString(48),
    back: `${location.search}${location.hash}`,
  };
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(pending.verifier));
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  const url = new URL(config.authorizeUrl, location.origin);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: config.clientId,
    redirect_uri: redirectUri(),
    scope: config.scope,
    state: pending.state,
    code_challenge: base64url(new Uint8Array(digest)),
    code_challenge_method: 'S256',
  }).toString();
  location.assign(url.href);
}

export interface Callback {
  code?: string;
  error?: string;
  pending: Pending | null;
  stateMatches: boolean;
}

/**
 * Takes the sign-in's answer (`?code=…&state=…` or `?error=…`) off the URL, putting back the URL the
 * user left from. Called before the page reads its filters from the URL; null when there is no answer.
 */
export function takeCallback(): Callback | null {
  const q = new URLSearchParams(location.search);
  const code = q.get('code') ?? undefined;
  const error = q.get('error_description') ?? q.get('error') ?? undefined;
  if (!code && !error) return null;
  let pending: Pending | null = null;
  try {
    pending = JSON.parse(sessionStorage.getItem(PENDING_KEY) ?? 'null') as Pending | null;
  } catch {
    // a damaged entry is no pending sign-in
  }
  sessionStorage.removeItem(PENDING_KEY);
  const state = q.get('state');
  // Without a sign-in started here, the URL keeps what it had but the answer.
  for (const k of ['code', 'state', 'error', 'error_description']) q.delete(k);
  const rest = q.toString();
  const back = pending ? pending.back : `${rest ? `?${rest}` : ''}${location.hash}`;
  history.replaceState(null, '', `/${back}`);
  return { code, error, pending, stateMatches: !!pending && state === pending.state };
}

/** Exchanges the code for an ID token and keeps it; returns what to tell the user. */
export async function completeSignIn(config: SignInConfig | null, cb: Callback): Promise<string> {
  if (cb.error) return `Sign-in failed: ${cb.error}`;
  if (!config || !cb.pending || !cb.stateMatches)
    return 'Sign-in failed: the answer did not match a sign-in started here. Try again.';
  const r = await fetch(new URL(config.tokenUrl, location.origin), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: config.clientId,
      code: cb.code!,
      redirect_uri: redirectUri(),
      code_verifier: cb.pending.verifier,
    }),
  });
  const body = (await r.json().catch(() => ({}))) as Record<string, string>;
  if (!r.ok || !body.id_token)
    return `Sign-in failed: ${body.error_description ?? body.error ?? `the token endpoint answered ${r.status}`}`;
  token.set(body.id_token);
  return 'Signed in.';
}

/** Ends the sign-in's own session too, where it has one (Cognito), coming back to the page. */
export function signOutUrl(config: SignInConfig | null): string | null {
  if (!config?.logoutUrl) return null;
  const url = new URL(config.logoutUrl, location.origin);
  url.search = new URLSearchParams({ client_id: config.clientId, logout_uri: redirectUri() }).toString();
  return url.href;
}
