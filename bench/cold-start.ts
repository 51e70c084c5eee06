/**
 * Cold start, A/B in one run: every function's bundle (built as the stack builds it) and a bare bundle
 * that only creates a DynamoDB document client are loaded in fresh `node` processes, interleaved in a
 * new random order each round, and the time of the module's import (its init: parsing, evaluating the
 * module scope), with the chunks every request of the function loads on demand, is taken inside the
 * process. A function's ratio is the median of its imports over the
 * median of the bare bundle's, so machine load that drifts during the run hits both sides alike. The
 * bare bundle is loaded three times a round: its median is the denominator of every ratio.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Bundle, buildBundles, contentsOf } from './bundles';

export interface ColdStart {
  function: string;
  bytes: number;
  /** Median module-init time over the bare client's. */
  ratio: number;
  median_ms: number;
  /** The largest packages beyond the AWS SDK (`name KB`), for the why. */
  extras: string;
}

// The entry, then the chunks every request of the function loads (a token verifier, a counter).
const MEASURE = `const t0 = performance.now();
for (const file of process.argv.slice(2)) await import(file);
process.stdout.write(String(performance.now() - t0));
`;

function importTime(runner: string, b: Bundle): Promise<number> {
  const file = b.file;
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [runner, file, ...b.then], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (err += d));
    child.on('error', fail);
    child.on('close', (code) => {
      const ms = Number(out);
      if (code === 0 && Number.isFinite(ms)) ok(ms);
      else fail(new Error(`loading ${file} failed (exit ${code}): ${err.slice(0, 400)}`));
    });
  });
}

/**
 * A uniform random order (Fisher–Yates). Sorting with a random comparator keeps most items near
 * their place, so a bundle ran at about the same moment of every round, and anything on the machine
 * that recurs at that period weighed on the same neighbours every time.
 */
function shuffled<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export async function measureColdStart(
  rounds: number,
  log: (line: string) => void,
): Promise<{ baseline: ColdStart; functions: ColdStart[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'cal-cold-'));
  try {
    const { baseline, functions } = await buildBundles(dir);
    const runner = join(dir, 'measure.mjs');
    writeFileSync(runner, MEASURE);
    const all: Bundle[] = [baseline, ...functions];
    const times = new Map<string, number[]>(all.map((b) => [b.file, []]));
    const t0 = performance.now();
    for (let r = 0; r < rounds; r++) {
      // The bare client three times a round: every ratio divides by its median, so it gets more samples.
      const order = shuffled([...all, baseline, baseline]);
      for (const b of order) times.get(b.file)!.push(await importTime(runner, b));
      const done = r + 1;
      const per = (performance.now() - t0) / done / 1000;
      process.stderr.write(
        `\rcold start: round ${done}/${rounds} (${all.length} bundles each), ETA ${((rounds - done) * per).toFixed(0)} s   `,
      );
    }
    process.stderr.write('\n');
    const base = median(times.get(baseline.file)!);
    const row = (b: Bundle): ColdStart => {
      const m = median(times.get(b.file)!);
      const extras = contentsOf(b.file)
        .slice(0, 4)
        .map((c) => `${c.what} ${(c.bytes / 1024).toFixed(0)}K`)
        .join(', ');
      return { function: b.function, bytes: b.bytes, ratio: m / base, median_ms: m, extras };
    };
    log(`cold start: ${rounds} imports of each of ${all.length} bundles, interleaved`);
    return { baseline: row(baseline), functions: functions.map(row) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
