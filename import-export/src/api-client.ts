import { type CalClient, createClient } from '../../client/src';

/** The typed client (client/), counting the requests it retried. */
export type ApiClient = CalClient & { base: string; retries: number };

const RETRYABLE = new Set([409, 429, 503]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A client whose requests are retried after a 409 / 429 / 503 (after the Retry-After it names) or a
 * dropped connection. With `unmarkReplays` (the importer, target.ts), a create retried
 * with its Idempotency-Key and answered `Idempotent-Replayed: true` replays this very call's first
 * attempt, so the mark is taken off; a replay left marked is of a create an earlier run made.
 */
export function apiClient(base: string, token?: string, o: { unmarkReplays?: boolean } = {}): ApiClient {
  const root = base.replace(/\/+$/, '');
  let retries = 0;
  const retrying = async (url: string, init: RequestInit): Promise<Response> => {
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await fetch(url, init);
        if (!RETRYABLE.has(res.status) || attempt >= 6) {
          if (!o.unmarkReplays || attempt === 0 || res.headers.get('idempotent-replayed') !== 'true')
            return res;
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

/** Runs `fn` over `items` with at most `concurrency` calls in flight; results keep the input order. */
export async function pool<T, R>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return out;
}
