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

/** The highest role named by `cal:role` or `cognito:groups`; a token without one is a subscriber. */
export function roleOf(payload: JWTPayload): Role {
  const claimed = [payload['cal:role'], ...((payload['cognito:groups'] as unknown[]) ?? [])];
  let best = -1;
  for (const c of claimed) best = Math.max(best, ROLES.indexOf(c as Role));
  return ROLES[Math.max(best, 0)]!;
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
    const code = (e as { code?: string }).code;
    if (code === 'ERR_JWT_EXPIRED') throw invalidToken('it has expired');
    if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED') throw invalidToken('it was issued by another issuer');
    throw invalidToken('its signature or format is wrong');
  }
  // Cognito access tokens carry the app client in client_id, ID tokens in aud.
  if (audience && payload.aud !== audience && payload.client_id !== audience)
    throw invalidToken('it was issued for another audience');
  if (!payload.sub) throw invalidToken('it names no subject');
  return { sub: payload.sub, role: roleOf(payload) };
}
