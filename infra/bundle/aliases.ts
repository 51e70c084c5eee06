import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const sanitizer = createRequire(createRequire(import.meta.url).resolve('sanitize-html'));

/**
 * Packages the function bundles replace (esbuild `alias`), used by the CDK functions
 * (infra/function-defaults.ts) and by `npm run bundles` / the bench, so that both build the same code.
 *
 * - postcss: see postcss-unused.cjs.
 * - htmlparser2: sanitize-html uses only its `Parser`, but the package's entry also loads DomUtils,
 *   the DOM handler and dom-serializer with entities' encode tables, built when the module loads: the
 *   bundles take the Parser's own module instead (the same code; in an A/B on the bench machine the
 *   sanitizer's init over a bare client's fell from about 22 ms to 13 ms).
 * - node:stream/web: see web-streams-unused.mjs.
 */
export const BUNDLE_ALIASES: Record<string, string> = {
  postcss: here('./postcss-unused.cjs'),
  htmlparser2: join(dirname(sanitizer.resolve('htmlparser2')), 'Parser.js'),
  'node:stream/web': here('./web-streams-unused.mjs'),
};
