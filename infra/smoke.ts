/**
 * Post-deploy smoke check: `npm run smoke -- <ApiUrl>` (the stack's ApiUrl output, or the site's
 * `https://<distribution>/cal/events/v1/`). Four requests, none of which writes anything:
 *
 *   1. the namespace index answers 200 with this API's namespace and routes;
 *   2. a list (GET events, one per page) answers 200 with a page of events and X-Cal-Total;
 *   3. a CORS preflight of a write (OPTIONS events, Authorization + JSON) answers 2xx with the CORS
 *      headers, as a browser on another origin needs;
 *   4. a write without a token (POST events) answers 401 in the error envelope;
 *   5. with the site's address (`npm run smoke -- <ApiUrl> <SiteUrl>`), one public page answers HTML:
 *      the listed event's (`GET <site>/event/<slug>/`, 200), or with no event a made-up slug's (404).
 *
 * Exits 1 when a check fails, printing what was expected and what came back.
 */
import { pagePath } from '../shared/domain/page-paths';

export interface SmokeResult {
  check: string;
  ok: boolean;
  detail: string;
}

const ORIGIN = 'https://smoke-check.example';

export async function smoke(
  apiUrl: string,
  fetchImpl: typeof fetch = fetch,
  siteUrl?: string,
): Promise<SmokeResult[]> {
  const root = apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`;
  const results: SmokeResult[] = [];
  const check = async (name: string, run: () => Promise<string | undefined>) => {
    try {
      const problem = await run();
      results.push({ check: name, ok: problem === undefined, detail: problem ?? 'ok' });
    } catch (e) {
      results.push({ check: name, ok: false, detail: (e as Error).message });
    }
  };
  const json = async (res: Response) => {
    const text = await res.text();
    try {
      return JSON.parse(text) as any;
    } catch {
      throw new Error(`HTTP ${res.status}, not JSON: ${text.slice(0, 200)}`);
    }
  };

  let listedSlug: string | undefined;
  await check('index', async () => {
    const res = await fetchImpl(root);
    const body = await json(res);
    if (res.status !== 200) return `expected 200, got ${res.status}: ${JSON.stringify(body).slice(0, 200)}`;
    if (body.namespace !== 'cal/events/v1' || typeof body.routes !== 'object')
      return `expected the cal/events/v1 namespace index, got ${JSON.stringify(body).slice(0, 200)}`;
    return undefined;
  });
  await check('list', async () => {
    const res = await fetchImpl(`${root}events?per_page=1`);
    const body = await json(res);
    if (res.status !== 200) return `expected 200, got ${res.status}: ${JSON.stringify(body).slice(0, 200)}`;
    if (!Array.isArray(body.events))
      return `expected a page of events, got ${JSON.stringify(body).slice(0, 200)}`;
    if (res.headers.get('x-cal-total') === null) return 'expected an X-Cal-Total header';
    listedSlug = typeof body.events[0]?.slug === 'string' ? body.events[0].slug : undefined;
    return undefined;
  });
  await check('preflight', async () => {
    const res = await fetchImpl(`${root}events`, {
      method: 'OPTIONS',
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    await res.arrayBuffer();
    if (res.status < 200 || res.status > 299) return `expected 2xx, got ${res.status}`;
    const origin = res.headers.get('access-control-allow-origin');
    if (origin !== '*' && origin !== ORIGIN)
      return `expected Access-Control-Allow-Origin * or ${ORIGIN}, got ${origin} (is corsAllowOrigins set?)`;
    const headers = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    if (!headers.includes('authorization') || !headers.includes('content-type'))
      return `expected Authorization and Content-Type to be allowed, got "${headers}"`;
    return undefined;
  });
  await check('401 on a write without a token', async () => {
    const res = await fetchImpl(`${root}events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'smoke check',
        start_date: '2031-01-01 10:00:00',
        end_date: '2031-01-01 11:00:00',
      }),
    });
    const body = await json(res);
    if (res.status !== 401) return `expected 401, got ${res.status}: ${JSON.stringify(body).slice(0, 200)}`;
    if (typeof body.code !== 'string' || body.data?.status !== 401)
      return `expected the error envelope, got ${JSON.stringify(body).slice(0, 200)}`;
    return undefined;
  });
  if (siteUrl)
    await check('public page', async () => {
      const slug = listedSlug ?? 'smoke-check-no-such-event';
      const url = `${siteUrl.replace(/\/+$/, '')}${pagePath('event', encodeURIComponent(slug))}`;
      const res = await fetchImpl(url);
      const text = await res.text();
      const expected = listedSlug ? 200 : 404;
      if (res.status !== expected) return `expected ${expected} from ${url}, got ${res.status}`;
      if (!(res.headers.get('content-type') ?? '').startsWith('text/html') || !/<html/i.test(text))
        return `expected an HTML page from ${url}, got ${res.headers.get('content-type')}`;
      return undefined;
    });
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [apiUrl, siteUrl] = process.argv.slice(2);
  if (!apiUrl || !/^https?:\/\//.test(apiUrl) || (siteUrl && !/^https?:\/\//.test(siteUrl))) {
    console.error("usage: npm run smoke -- <ApiUrl> [<SiteUrl>]   (the stack's outputs)");
    process.exit(2);
  }
  const results = await smoke(apiUrl, fetch, siteUrl);
  for (const r of results) console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.check}${r.ok ? '' : `: ${r.detail}`}`);
  process.exit(results.every((r) => r.ok) ? 0 : 1);
}
