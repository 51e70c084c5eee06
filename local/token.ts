import { parseArgs } from 'node:util';
import { SignJWT } from 'jose';
import { ROLES, type Role } from '../shared/domain/roles';
import { LOCAL_ISSUER } from '../shared/http/auth';
import { localSecret } from './secret';

/** Signs a token for the local stack: `npm run token -- --role editor [--sub ID] [--expires 2h]`. */
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

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      role: { type: 'string', default: 'editor' },
      sub: { type: 'string' },
      expires: { type: 'string', default: '12h' },
    },
  });
  const role = values.role as Role;
  if (!ROLES.includes(role)) {
    console.error(`--role must be one of ${ROLES.join(', ')}`);
    process.exit(2);
  }
  console.log(await signLocalToken(localSecret(), role, values.sub ?? `local-${role}`, values.expires));
}
