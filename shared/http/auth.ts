import { createRemoteJWKSet, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from 'jose';
import { ROLES, type Role, type User } from '../domain/roles';
import { invalidToken } from './errors';

export type { User };

/**
 * Token verification. In AWS the stack sets AUTH_JWKS_URL + AUTH_ISSUER (Cognito or any OIDC issuer);
 * locally the local stack is its own issuer and signs HS256 tokens with AUTH_LOCAL_SECRET.
 */
let jwks: JWTVerifyGetKey | undefined;
function verificationKey(): JWTVerifyGetKey | Uint8Array {
  if (process.env.AUTH_JWKS_URL) {
    jwks ??= createRemoteJWKSet(new URL(process.env.AUTH_JWKS_URL));
    return jwks;
  }
  if (process.env.AUTH_LOCAL_SECRET) return new TextEncoder().encode(process.env.AUTH_LOCAL_SECRET);
  throw new Error('No token issuer configured: set AUTH_JWKS_URL or AUTH_LOCAL_SECRET');
}

export const LOCAL_ISSUER = 'cal-events-local';

const isRole = (name: string): name is Role => (ROLES as readonly string[]).includes(name);

/**
 * The role names a token claims: `cal:role` (a string) and `cognito:groups` (an array of strings, or one
 * group as a string). A claim of another shape makes the whole token malformed (401), never a 500 and
 * never a silent subscriber.
 */
function claimedNames(payload: JWTPayload): string[] {
  const role = payload['cal:role'];
  const groups = payload['cognito:groups'];
  if (role !== undefined && typeof role !== 'string') throw invalidToken('its role claim is malformed');
  const names = role === undefined ? [] : [role];
  if (typeof groups === 'string') return [...names, groups];
  if (groups === undefined) return names;
  if (!Array.isArray(groups) || !groups.every((g) => typeof g === 'string'))
    throw invalidToken('its groups claim is malformed');
  return [...names, ...(groups as string[])];
}

/**
 * The highest role named by `cal:role` or `cognito:groups`; names that are no role (other Cognito
 * groups, unknown roles) grant nothing, so a token without a known one is a subscriber.
 */
export function roleOf(payload: JWTPayload): Role {
  let best = 0;
  for (const name of claimedNames(payload)) if (isRole(name)) best = Math.max(best, ROLES.indexOf(name));
  return ROLES[best]!;
}

/**
 * Whether the token was issued for one of `audiences` (AUTH_AUDIENCE, comma-separated: the API's client
 * and the calendar page's): ID tokens name it in `aud` (a string or a list), Cognito access tokens in
 * `client_id`.
 */
function issuedFor(payload: JWTPayload, audiences: string): boolean {
  const named = [payload.aud ?? [], payload.client_id ?? []].flat();
  return audiences.split(',').some((a) => a.trim() !== '' && named.includes(a.trim()));
}

/** Why jose refused a token, in words that name no library internals. */
function refusal(e: unknown) {
  const { code, claim, reason } = e as { code?: string; claim?: string; reason?: string };
  if (code === 'ERR_JWT_EXPIRED') return invalidToken('it has expired');
  if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED') {
    if (claim === 'iss') return invalidToken('it was issued by another issuer');
    if (claim === 'nbf' && reason === 'check_failed') return invalidToken('it is not valid yet');
    return invalidToken('its claims are malformed');
  }
  return invalidToken('its signature or format is wrong');
}

export async function authenticate(header: string | undefined): Promise<User | null> {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  if (!match) throw invalidToken('the Authorization header must be "Bearer <token>"');
  const audience = process.env.AUTH_AUDIENCE;
  let payload: JWTPayload;
  try {
    const key = verificationKey();
    const options = { issuer: process.env.AUTH_ISSUER ?? LOCAL_ISSUER };
    payload = (
      key instanceof Uint8Array
        ? await jwtVerify(match[1]!, key, options)
        : await jwtVerify(match[1]!, key, options)
    ).payload;
  } catch (e) {
    throw refusal(e);
  }
  if (audience && !issuedFor(payload, audience)) throw invalidToken('it was issued for another audience');
  if (payload.sub === undefined || payload.sub === '') throw invalidToken('it names no subject');
  if (typeof payload.sub !== 'string') throw invalidToken('its subject claim is malformed');
  return { sub: payload.sub, role: roleOf(payload) };
}
