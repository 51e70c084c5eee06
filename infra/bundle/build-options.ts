import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions, Metafile } from 'esbuild';
import type { Operation } from '../../shared/contracts/types';
import { BUNDLE_ALIASES } from './aliases';

const SHARED_HTTP = fileURLToPath(new URL('../../shared/http/', import.meta.url));

/** The file a function's bundle starts from: the Lambda handler is `index.handler`. */
export const FUNCTION_ENTRY = 'index.mjs';

/**
 * What every request of an operation loads: the token verifier where the operation needs a token
 * (shared/http/handler.ts).
 */
export function everyRequestLoads(op: Pick<Operation, 'operationId' | 'access'> | undefined) {
  return { auth: op !== undefined && op.access !== 'public' };
}

/**
 * How a function's code is bundled, by the CDK stack (infra/function-defaults.ts) and by
 * `npm run bundles` / the bench alike: ESM for Node 22, minified, the AWS SDK bundled in.
 *
 * Split into chunks: what a function imports only with `await import()` (the HTML sanitizer for
 * bodies with markup, Powertools idempotency for creates with a key, the AWS SDK's credential
 * providers) is a file of its own, read and parsed on the request that first needs it, not at every
 * cold start. In one file esbuild keeps such code in the bundle, which Node parses whole when the
 * function starts. Code both sides use goes to a shared chunk that the entry imports.
 *
 * What every request of the operation `op` loads (everyRequestLoads) is bundled into the start instead:
 * the build injects shared/http/bundled-auth.ts, which imports it statically, and drops the statement of
 * shared/http/lazy-parts.ts that imports it on demand (its label, ON_DEMAND_AUTH),
 * so the dynamic import and its chunk leave the bundle. A chunk loaded on demand cost about 3 ms more
 * than the same code loaded with the entry (A/B of event creates, issue 9).
 */
export function functionBuild(
  entry: string,
  outdir: string,
  op?: Operation,
): BuildOptions & { outdir: string } {
  const every = everyRequestLoads(op);
  return {
    entryPoints: { index: entry },
    outdir,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    minify: true,
    mainFields: ['module', 'main'],
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    // CommonJS dependencies bundled into ESM still call require() for Node built-ins.
    banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
    alias: BUNDLE_ALIASES,
    inject: every.auth ? [join(SHARED_HTTP, 'bundled-auth.ts')] : [],
    dropLabels: every.auth ? ['ON_DEMAND_AUTH'] : [],
    logLevel: 'silent',
  };
}

/**
 * The output files a cold start loads: the entry and the chunks it imports statically, not dynamically;
 * with `alsoLoading`, the chunks holding those source modules (paths as the metafile names them, by
 * their ending) and what they import statically too, as a request that loads them does.
 */
export function loadedAtStart(metafile: Metafile, alsoLoading: string[] = []): string[] {
  const { outputs } = metafile;
  const loaded = new Set<string>();
  const visit = (out: string) => {
    if (loaded.has(out)) return;
    loaded.add(out);
    for (const i of outputs[out]!.imports)
      if (i.kind === 'import-statement' && outputs[i.path]) visit(i.path);
  };
  const entry = Object.keys(outputs).find((o) => o.endsWith(`/${FUNCTION_ENTRY}`));
  if (entry) visit(entry);
  for (const out of chunksHolding(metafile, alsoLoading)) visit(out);
  return [...loaded];
}

/** The output files holding these source modules (by the ending of their paths). */
export function chunksHolding(metafile: Metafile, modules: string[]): string[] {
  return Object.entries(metafile.outputs)
    .filter(([, { inputs }]) => Object.keys(inputs).some((i) => modules.some((m) => i.endsWith(m))))
    .map(([out]) => out);
}
