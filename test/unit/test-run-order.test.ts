import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runRank, SLOW_FILES } from '../../vitest.config';
import { timingLines } from '../support/summary-reporter';

const ROOT = resolve(import.meta.dirname, '../..');

describe('the order of a test run', () => {
  it('names slow files that exist, each once', () => {
    expect(SLOW_FILES.filter((f) => !existsSync(resolve(ROOT, f)))).toEqual([]);
    expect(new Set(SLOW_FILES).size).toBe(SLOW_FILES.length);
  });

  it('starts the slow files first, in their order, then integration files before unit ones', () => {
    const files = [
      'test/unit/slugs.test.ts',
      'test/handlers/errors.test.ts',
      'test/integration/tags.test.ts',
      SLOW_FILES[1]!,
      'test/browser/new-view.test.ts',
      SLOW_FILES[0]!,
    ];
    expect([...files].sort((a, b) => runRank(a) - runRank(b))).toEqual([
      SLOW_FILES[0],
      SLOW_FILES[1],
      'test/browser/new-view.test.ts',
      'test/integration/tags.test.ts',
      'test/handlers/errors.test.ts',
      'test/unit/slugs.test.ts',
    ]);
  });
});

describe("the run's closing time lines", () => {
  it('give the wall time, the files’ total and the slowest files, slowest first', () => {
    const files = Array.from({ length: 12 }, (_, i) => ({
      name: `test/unit/f${i}.test.ts`,
      seconds: i + 0.25,
    }));
    const lines = timingLines(files, 61.04);
    expect(lines[0]).toBe('Suite: 61.0 s wall, 69.0 s in 12 files; the 10 slowest:');
    expect(lines.slice(1)).toHaveLength(10);
    expect(lines[1]).toBe('  11.3 s  test/unit/f11.test.ts');
    expect(lines[10]).toBe('   2.3 s  test/unit/f2.test.ts');
  });
});
