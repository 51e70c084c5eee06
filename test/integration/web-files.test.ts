import { beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuilt } from '../../web/build';
import { useStack } from '../support/use-stack';

/** The local gateway serves the built page (web/dist) outside /cal/ and nothing else of the disk. */
const { api } = await useStack();

beforeAll(async () => {
  await ensureWebBuilt();
});

const get = (path: string, init?: RequestInit) => fetch(`${api.origin}${path}`, init);

describe('the built page on the local gateway', () => {
  it('serves the calendar at / and its assets with their types', async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect(await page.text()).toContain('<div id="calendar"');

    const script = await get('/app.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=UTF-8');
    expect((await get('/app.css')).headers.get('content-type')).toBe('text/css; charset=UTF-8');
  });

  it('serves the explorer at /docs and /docs/, with Swagger UI from this origin', async () => {
    for (const path of ['/docs', '/docs/']) {
      const res = await get(path);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain('src="/docs/swagger-ui-bundle.js"');
      expect(html).not.toMatch(/https?:\/\//);
    }
    expect((await get('/docs/swagger-ui-bundle.js')).status).toBe(200);
  });

  it('answers HEAD without a body', async () => {
    const res = await get('/', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });

  it.each([
    '/..%2fpackage.json',
    '/%2e%2e/package.json',
    '/docs/..%2f..%2fpackage.json',
    '/nope',
    '/%E0%A4%A',
  ])(
    'leaves %s to the API (404 rest_no_route): nothing outside the build, nothing not in it',
    async (path) => {
      const res = await get(path);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { code: string }).code).toBe('rest_no_route');
    },
  );

  it('keeps everything under /cal/ for the API, and other methods too', async () => {
    expect(((await (await get('/cal/events/v1')).json()) as { namespace: string }).namespace).toBe(
      'cal/events/v1',
    );
    const post = await get('/', { method: 'POST' });
    expect(post.status).toBe(404);
    expect(((await post.json()) as { code: string }).code).toBe('rest_no_route');
  });
});
