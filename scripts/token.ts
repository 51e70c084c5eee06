import { parseArgs } from 'node:util';
import { ROLES, type Role } from '../shared/domain/roles';
import { localSecret } from '../local/secret';
import { signLocalToken } from '../local/token';

/** `npm run token -- --role editor [--sub ID] [--expires 2h]`: a token for the local stack. */
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
