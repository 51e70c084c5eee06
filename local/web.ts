import { existsSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { WEB_DIST } from '../web/paths';

/**
 * The local stand-in for the deployed site's static origin (S3 behind CloudFront, infra/site.ts): the
 * built page (web/dist) for GET / HEAD outside `/cal/`, which stays the API's, as under CloudFront.
 * Whatever is not a file of the build falls through to the API, so unknown paths keep their 404
 * `rest_no_route` envelope.
 */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=UTF-8',
  '.js': 'text/javascript; charset=UTF-8',
  '.css': 'text/css; charset=UTF-8',
  '.map': 'application/json; charset=UTF-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=UTF-8',
  '.ico': 'image/x-icon',
};

/** Page paths without a file name, as CloudFront's function maps them (infra/site.ts). */
const PAGES: Record<string, string> = {
  '/': 'index.html',
  '/docs': 'docs/index.html',
  '/docs/': 'docs/index.html',
};

const NOT_BUILT = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Not built</title>
<p>The calendar page is not built. Run <code>npm run build:web</code> (or restart <code>npm start</code>, which builds it).</p>
<p>The API is at <a href="/cal/events/v1">/cal/events/v1</a>.</p></html>`;

/** The file of web/dist a request path names, or null (outside the build, or not a file). */
function fileFor(pathname: string, dist: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  const relative = PAGES[decoded] ?? decoded.slice(1);
  if (!relative || relative.includes('\0')) return null;
  const file = normalize(join(dist, relative));
  if (!file.startsWith(dist + sep)) return null;
  try {
    return statSync(file).isFile() ? file : null;
  } catch {
    return null;
  }
}

/** Text is sent gzipped when the browser takes it, as CloudFront compresses it deployed (app.js: 279 KB, 86 KB gzipped). */
const COMPRESSIBLE = /^(text\/|application\/json|image\/svg)/;
const zipCache = new Map<string, { mtimeMs: number; body: Buffer }>();

/** A file's gzipped bytes, compressed once per version of the file (a rebuild replaces it). */
function gzipped(file: string): Buffer {
  const { mtimeMs } = statSync(file);
  const cached = zipCache.get(file);
  if (cached?.mtimeMs === mtimeMs) return cached.body;
  const body = gzipSync(readFileSync(file), { level: 9 });
  zipCache.set(file, { mtimeMs, body });
  return body;
}

/** Answers the request from the built page when it names one of its files; returns whether it did. */
export function serveWeb(req: IncomingMessage, res: ServerResponse, dist = WEB_DIST): boolean {
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') return false;
  const { pathname } = new URL(req.url ?? '/', 'http://local');
  if (pathname === '/cal' || pathname.startsWith('/cal/')) return false;
  const file = fileFor(pathname, dist);
  if (!file) {
    if (!(pathname in PAGES) || existsSync(join(dist, 'index.html'))) return false;
    res.writeHead(503, { 'Content-Type': TYPES['.html']!, 'Cache-Control': 'no-store' });
    res.end(method === 'HEAD' ? undefined : NOT_BUILT);
    return true;
  }
  const type = TYPES[extname(file)] ?? 'application/octet-stream';
  const zipped = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? '')) && COMPRESSIBLE.test(type);
  const body = zipped ? gzipped(file) : readFileSync(file);
  res.writeHead(200, {
    'Content-Type': type,
    'Content-Length': String(body.length),
    ...(zipped ? { 'Content-Encoding': 'gzip' } : {}),
    // Text files are compressed for the browsers that take it: caches must keep both forms apart.
    ...(COMPRESSIBLE.test(type) ? { Vary: 'Accept-Encoding' } : {}),
    // A rebuild replaces files under the same names, so the browser revalidates rather than caches.
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(method === 'HEAD' ? undefined : body);
  return true;
}
