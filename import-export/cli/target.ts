import { adminToken } from '../../local/token';
import { type ApiClient, importClient, ImportError } from '../src';

/** The API the commands write to and read from unless --to (or CAL_BASE_URL) names another: `npm start`'s. */
export const LOCAL_API = 'http://localhost:3000/cal/events/v1';

/** The target's client, after a read that shows an API answers there. */
export async function targetClient(to: string | undefined, token: string | undefined): Promise<ApiClient> {
  const base = (to ?? process.env.CAL_BASE_URL ?? LOCAL_API).replace(/\/+$/, '');
  const probe = await fetch(`${base}/categories?per_page=1`).catch((e: Error) => e);
  if (probe instanceof Error || !probe.ok)
    throw new ImportError(
      `No API answers at ${base}` +
        (probe instanceof Error
          ? ` (${(probe.cause as Error | undefined)?.message ?? probe.message})`
          : ` (HTTP ${probe.status})`) +
        (to ? ': check --to.' : ': start the local stack with `npm start`, or give --to and --token.'),
    );
  if (to && !token)
    throw new ImportError('--to needs --token: an editor or administrator token of that API.');
  return importClient(base, token ?? (await adminToken()));
}
