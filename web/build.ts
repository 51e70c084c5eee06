import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { WEB_DIST, WEB_ROOT, WEB_SRC as SRC } from './paths';

/**
 * Builds the calendar page and the API explorer into web/dist/ (git-ignored), everything bundled: no
 * CDN at run time. `npm run build:web` builds; `npm start`, the browser tests and `cdk synth` call
 * `ensureWebBuilt()`, which builds only when a source is newer than the last build.
 *
 *   web/dist/index.html, app.js, app.css      the calendar (FullCalendar bundled by esbuild)
 *   web/dist/locales/<code>.js                FullCalendar's locales, one fetched for the browser's language
 *   web/dist/docs/index.html, docs.js, ...    Swagger UI (copied from swagger-ui-dist) on /doc
 */
export { WEB_DIST };
const REPO = resolve(WEB_ROOT, '..');
const SWAGGER = join(REPO, 'node_modules', 'swagger-ui-dist');
/** The typed client, bundled into the page. */
const CLIENT_SRC = join(REPO, 'client', 'src');
/** The domain rules the page shares with the service (page paths, recurrence lines), bundled too. */
const DOMAIN_SRC = join(REPO, 'shared', 'domain');
const STAMP = '.built';

/** The newest modification time of the files below `dir` (0 when it does not exist). */
function newest(dir: string): number {
  if (!existsSync(dir)) return 0;
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/** FullCalendar's locale modules (`de.js`, `pt-br.js`, …) with their codes. */
function fullCalendarLocales(): Array<{ code: string; file: string }> {
  const dir = join(REPO, 'node_modules', '@fullcalendar', 'core', 'locales');
  return readdirSync(dir)
    .filter((f) => /^[a-z]{2,3}(-[a-z0-9]+)*\.js$/.test(f))
    .map((f) => ({ code: f.slice(0, -3), file: join(dir, f) }));
}

/** Whether web/dist is missing or older than a source of the page, what it bundles or this script. */
export function webBuildNeeded(): boolean {
  const stamp = join(WEB_DIST, STAMP);
  if (!existsSync(stamp)) return true;
  const built = statSync(stamp).mtimeMs;
  return (
    Math.max(newest(SRC), newest(CLIENT_SRC), newest(DOMAIN_SRC)) > built ||
    statSync(fileURLToPath(import.meta.url)).mtimeMs > built
  );
}

/**
 * Builds into a fresh directory next to web/dist and swaps it in, so that a server reading web/dist (or
 * a second build running at the same time, as parallel test files may start) never sees half a build.
 */
export async function buildWeb(): Promise<void> {
  if (!existsSync(SWAGGER))
    throw new Error('swagger-ui-dist is missing from node_modules: run `npm ci` first.');
  const out = `${WEB_DIST}.tmp-${process.pid}-${Date.now()}`;
  mkdirSync(join(out, 'docs'), { recursive: true });
  try {
    const locales = fullCalendarLocales();
    await build({
      entryPoints: { app: join(SRC, 'main.ts'), 'docs/docs': join(SRC, 'docs.ts') },
      // The codes of the locale files below, for the page to fetch the browser's one (web/src/locale.ts).
      define: { __FC_LOCALES__: JSON.stringify(locales.map((l) => l.code)) },
      outdir: out,
      bundle: true,
      format: 'esm',
      target: 'es2020',
      minify: true,
      sourcemap: true,
      legalComments: 'linked',
      logLevel: 'warning',
    });
    // FullCalendar's locales, one small module each: the page loads only the browser's language's.
    await build({
      entryPoints: Object.fromEntries(locales.map((l) => [`locales/${l.code}`, l.file])),
      outdir: out,
      format: 'esm',
      target: 'es2020',
      minify: true,
      logLevel: 'warning',
    });
    copyFileSync(join(SRC, 'index.html'), join(out, 'index.html'));
    copyFileSync(join(SRC, 'app.css'), join(out, 'app.css'));
    copyFileSync(join(SRC, 'docs.html'), join(out, 'docs', 'index.html'));
    for (const f of ['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png'])
      copyFileSync(join(SWAGGER, f), join(out, 'docs', f));
    writeFileSync(join(out, STAMP), new Date().toISOString());
    const old = `${out}.old`;
    if (existsSync(WEB_DIST)) renameSync(WEB_DIST, old);
    try {
      renameSync(out, WEB_DIST);
    } catch {
      // another build swapped its own in meanwhile: the same sources, so keep that one
      rmSync(out, { recursive: true, force: true });
    }
    rmSync(old, { recursive: true, force: true });
  } catch (e) {
    rmSync(out, { recursive: true, force: true });
    throw e;
  }
}

/** Builds web/dist when it is missing or stale; returns whether it built. */
export async function ensureWebBuilt(): Promise<boolean> {
  if (!webBuildNeeded()) return false;
  await buildWeb();
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const ifNeeded = process.argv.includes('--if-needed');
  try {
    const started = Date.now();
    const built = ifNeeded ? await ensureWebBuilt() : (await buildWeb(), true);
    console.log(
      built
        ? `web: built web/dist in ${Date.now() - started} ms`
        : 'web: web/dist is up to date (npm run build:web rebuilds)',
    );
  } catch (e) {
    console.error(`web: build failed: ${(e as Error).message}`);
    process.exit(1);
  }
}
