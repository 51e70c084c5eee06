/**
 * `npm run bundles`: the size of every function's bundle, built as the CDK stack builds it (esbuild,
 * ESM, node22, minified, the AWS SDK bundled in), next to a bundle that only creates a DynamoDB
 * document client (the floor every function pays). Prints a table; `--json` prints JSON instead.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import {
  chunksHolding,
  everyRequestLoads,
  FUNCTION_ENTRY,
  functionBuild,
  loadedAtStart,
} from '../infra/bundle/build-options';
import { NO_ROUTE_HANDLER } from '../shared/config';
import { operations } from '../shared/contracts';
import type { Operation } from '../shared/contracts/types';

const ROOT = resolve(import.meta.dirname, '..');

/** What a cold start loads beyond the AWS SDK, by package (or `shared/...` for our own code), largest first. */
export type Contents = Array<{ what: string; bytes: number }>;

const built = new Map<string, Contents>();

/**
 * Source modules that every successful request of an operation loads (everyRequestLoads), which its
 * cold start therefore counts. The build bundles them into the start; should one be a chunk loaded on
 * demand, the measurement imports it after the entry, as such a request would.
 */
function loadedByEveryRequest(op: Operation | undefined): string[] {
  const every = everyRequestLoads(op);
  return every.auth ? ['shared/http/auth.ts'] : [];
}

/**
 * Bundles one entry into `outdir` as infra/function-defaults.ts does (infra/bundle/build-options.ts)
 * and returns what a cold start loads: the entry and the chunks it imports statically, plus the chunks
 * every request of `op` loads (`then`, imported after the entry), not those only some requests reach.
 * What it holds is listed by `contentsOf` (by the entry file).
 */
export async function bundleSize(
  entry: string,
  outdir: string,
  op?: Operation,
): Promise<{ file: string; then: string[]; bytes: number }> {
  const result = await build({ ...functionBuild(entry, outdir, op), metafile: true });
  const outputs = result.metafile.outputs;
  const everyRequest = loadedByEveryRequest(op);
  const loaded = loadedAtStart(result.metafile, everyRequest);
  const by = new Map<string, number>();
  for (const out of loaded)
    for (const [path, { bytesInOutput }] of Object.entries(outputs[out]!.inputs)) {
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1];
      const what =
        pkg ??
        path
          .replace(/^(\.\.\/)+/, '')
          .split('/')
          .slice(0, 2)
          .join('/');
      by.set(what, (by.get(what) ?? 0) + bytesInOutput);
    }
  built.set(
    join(outdir, FUNCTION_ENTRY),
    [...by]
      .filter(([what]) => !/^@(aws-sdk|smithy|aws-crypto)\//.test(what))
      .map(([what, bytes]) => ({ what, bytes }))
      .sort((a, b) => b.bytes - a.bytes),
  );
  return {
    file: join(outdir, FUNCTION_ENTRY),
    then: chunksHolding(result.metafile, everyRequest).map((o) => resolve(o)),
    bytes: loaded.reduce((n, o) => n + statSync(o).size, 0),
  };
}

/** The contents of a bundle built by `bundleSize` (by its output file). */
export const contentsOf = (out: string): Contents => built.get(out) ?? [];

const BARE = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nimport { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';\nexport const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));\nexport const handler = async () => ({ statusCode: 200, body: String(!!ddb) });\n`;

export interface Bundle {
  function: string;
  file: string;
  /** Chunks every request loads, imported after `file` by the cold-start measurement. */
  then: string[];
  bytes: number;
}

/**
 * Bundles every function's entry (the operations' handlers and the no-route function) and the bare
 * client into `dir`, where they stay (the cold-start measurement runs them).
 */
export async function buildBundles(
  dir: string,
  progress = true,
): Promise<{ baseline: Bundle; functions: Bundle[] }> {
  const bare = join(dir, 'bare.ts');
  writeFileSync(bare, BARE);
  // The bare entry lives in a temporary folder: resolve the SDK from the project's node_modules.
  process.env.NODE_PATH = join(ROOT, 'node_modules');
  const bareDir = join(dir, 'bare');
  const bareBuilt = await bundleSize(bare, bareDir).catch(async () => {
    const local = join(ROOT, 'bench', `.bare-${process.pid}.ts`);
    writeFileSync(local, BARE);
    try {
      return await bundleSize(local, bareDir);
    } finally {
      rmSync(local);
    }
  });
  const entries = [...new Set([...operations.map((op) => op.handler), NO_ROUTE_HANDLER])];
  const functions: Bundle[] = [];
  for (const [i, handler] of entries.entries()) {
    if (progress) process.stderr.write(`\rbundling ${i + 1}/${entries.length} ${handler.padEnd(50)}`);
    functions.push({
      function: handler.replace(/^functions\//, ''),
      ...(await bundleSize(
        join(ROOT, `${handler}.ts`),
        join(dir, String(i)),
        operations.find((op) => op.handler === handler),
      )),
    });
  }
  if (progress) process.stderr.write('\n');
  return { baseline: { function: 'bare DynamoDB client', ...bareBuilt }, functions };
}

/** Every function's bundle size and the bare client's. */
export async function bundleSizes(): Promise<{
  baseline: number;
  functions: Array<{ function: string; bytes: number }>;
}> {
  const dir = mkdtempSync(join(tmpdir(), 'cal-bundles-'));
  try {
    const { baseline, functions } = await buildBundles(dir);
    return {
      baseline: baseline.bytes,
      functions: functions.map((f) => ({ function: f.function, bytes: f.bytes })),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values: args } = parseArgs({ options: { json: { type: 'boolean', default: false } } });
  const { baseline, functions } = await bundleSizes();
  if (args.json) console.log(JSON.stringify({ baseline, functions }, null, 2));
  else {
    const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
    console.log(`| function | bundle | × bare client (${kb(baseline)}) |\n| --- | ---: | ---: |`);
    for (const f of functions)
      console.log(`| ${f.function} | ${kb(f.bytes)} | ${(f.bytes / baseline).toFixed(2)} |`);
  }
}
