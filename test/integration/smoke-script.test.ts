import { describe, expect, it } from 'vitest';
import { smoke } from '../../infra/smoke';
import { useStack } from '../support/use-stack';

/** The post-deploy smoke check (`npm run smoke -- <ApiUrl>`, infra/smoke.ts) against the local stack. */
const { api } = await useStack();

describe('npm run smoke', () => {
  it('passes against a running API: index, list, preflight, 401 on a write', async () => {
    const results = await smoke(`${api.base}/`);

    expect(results).toEqual([
      { check: 'index', ok: true, detail: 'ok' },
      { check: 'list', ok: true, detail: 'ok' },
      { check: 'preflight', ok: true, detail: 'ok' },
      { check: '401 on a write without a token', ok: true, detail: 'ok' },
    ]);
  });

  it("reads one public page when given the site, the listed event's or a made-up one's (issue 38)", async () => {
    const results = await smoke(`${api.base}/`, fetch, api.origin);

    expect(results.map((r) => [r.check, r.detail])).toEqual([
      ['index', 'ok'],
      ['list', 'ok'],
      ['preflight', 'ok'],
      ['401 on a write without a token', 'ok'],
      ['public page', 'ok'],
    ]);
    // Where no page is served, it fails, saying so.
    const elsewhere = await smoke(`${api.base}/`, fetch, `${api.origin}/not-the-site`);
    expect(elsewhere.find((r) => r.check === 'public page')).toMatchObject({ ok: false });
  });

  it('fails, saying why, where the API is not there', async () => {
    const results = await smoke(`${api.origin}/not-the-api/`);

    // A preflight is answered on any path (by the gateway's CORS, or `$default`): only it passes.
    expect(results.filter((r) => r.ok).map((r) => r.check)).toEqual(['preflight']);
    expect(results[0]!.detail).toMatch(/expected 200, got 404|not JSON/);
  });

  it('fails a preflight answered without CORS headers, as the $default function once did', async () => {
    const preflightAs405: typeof fetch = async (input, init) =>
      init?.method === 'OPTIONS'
        ? new Response(JSON.stringify({ code: 'rest_no_route' }), { status: 405 })
        : fetch(input, init);

    const results = await smoke(`${api.base}/`, preflightAs405);

    expect(results.find((r) => r.check === 'preflight')).toEqual({
      check: 'preflight',
      ok: false,
      detail: 'expected 2xx, got 405',
    });
  });
});
