import { SignJWT } from 'jose';
import type { Role } from '../shared/domain/roles';
import { LOCAL_ISSUER } from '../shared/http/auth';
import { localSecret } from './secret';

/** Signs a token of the local issuer (the one the local stack verifies) for `role` and subject `sub`. */
export async function signLocalToken(
  secret: string,
  role: Role,
  sub: string,
  expires = '12h',
): Promise<string> {
  return new SignJWT({ 'cal:role': role })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(LOCAL_ISSUER)
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime(expires)
    .sign(new TextEncoder().encode(secret));
}

/** An administrator token signed with the local secret (the one `npm start` verifies), for the tools. */
export const adminToken = (secret = localSecret()) =>
  signLocalToken(secret, 'administrator', 'local-seed', '2h');
