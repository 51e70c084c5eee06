import { createClient } from '../../client/src';
import type { ApiClient } from '../seed';

const RETRYABLE = new Set([409, 429, 503]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The target's typed client, its requests retried after a 409 (a write that lost a race), 429, 503 or a
 * dropped connection, as the seed's are. One difference: a create retried with its Idempotency-Key and
 * answered `Idempotent-Replayed: true` replays this very call's first attempt, so the mark is taken
 * off; a replay left marked is of a create an earlier run made (the import's state file was lost).
 */
export function importClient(base: string, token: string): ApiClient {
  const root = base.replace(/\/+$/, '');
  let retries = 0;
  const retrying = async (url: string, init: RequestInit): Promise<Response> => {
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await fetch(url, init);
        if (!RETRYABLE.has(res.status) || attempt >= 6) {
          if (attempt === 0 || res.headers.get('idempotent-replayed') !== 'true') return res;
          const headers = new Headers(res.headers);
          headers.delete('idempotent-replayed');
          return new Response(await res.arrayBuffer(), { status: res.status, headers });
        }
        await res.arrayBuffer();
        retries++;
        const after = Number(res.headers.get('retry-after'));
        await sleep(after > 0 ? after * 1000 : 25 * 2 ** attempt + Math.random() * 25);
      } catch (e) {
        if (attempt >= 3) throw new Error(`${init.method} ${url}: ${(e as Error).message}`);
        retries++;
        await sleep(100 * 2 ** attempt);
      }
    }
  };
  const client = createClient({ baseUrl: root, token, fetch: retrying });
  return Object.defineProperties(client as ApiClient, {
    base: { value: root },
    retries: { get: () => retries },
  });
}
