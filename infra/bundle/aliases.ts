import { fileURLToPath } from 'node:url';

/**
 * Packages the function bundles replace (esbuild `alias`), used by the CDK functions
 * (infra/function-defaults.ts) and by `npm run bundles` / the bench, so that both build the same code.
 */
export const BUNDLE_ALIASES: Record<string, string> = {
  postcss: fileURLToPath(new URL('./postcss-unused.cjs', import.meta.url)),
};
