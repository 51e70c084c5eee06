import { relative } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

/** How many of the slowest files the closing lines name. */
const SLOWEST = 10;

/** A file's own time: loading it (its top-level code and imports), its setup files, its tests and hooks. */
export function fileSeconds(mod: TestModule): number {
  const d = mod.diagnostic();
  return (d.collectDuration + d.setupDuration + d.duration) / 1000;
}

/** The run's time and its slowest files, one line each, slowest first. */
export function timingLines(
  files: ReadonlyArray<{ name: string; seconds: number }>,
  wallSeconds: number,
  count = SLOWEST,
): string[] {
  const slowest = [...files].sort((a, b) => b.seconds - a.seconds).slice(0, count);
  const total = files.reduce((sum, f) => sum + f.seconds, 0);
  const width = Math.max(0, ...slowest.map((f) => f.seconds.toFixed(1).length));
  return [
    `Suite: ${wallSeconds.toFixed(1)} s wall, ${total.toFixed(1)} s in ${files.length} files; the ${slowest.length} slowest:`,
    ...slowest.map((f) => `  ${f.seconds.toFixed(1).padStart(width)} s  ${f.name}`),
  ];
}

/**
 * Prints the run's time and its ten slowest files, then the plain `N passed, N failed, N skipped`
 * closing line that CI reads. That line must be the last of the run, but vitest prints the coverage
 * report after `onTestRunEnd`, so a `vitest run` with coverage on prints these lines when the process
 * exits instead.
 */
export default class SummaryReporter implements Reporter {
  private printAtExit = false;
  private root = process.cwd();

  onInit(vitest: Vitest): void {
    this.printAtExit = vitest.config.coverage.enabled && !vitest.config.watch;
    this.root = vitest.config.root;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = errors.length;
    let skipped = 0;
    for (const mod of modules) {
      if (mod.state() === 'failed' && [...mod.children.allTests()].length === 0) failed++;
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
    }
    const files = modules.map((mod) => ({
      name: relative(this.root, mod.moduleId),
      seconds: fileSeconds(mod),
    }));
    // The wall time is the process's so far (performance.now() counts from its start), taken when the
    // lines are printed: with coverage on, it includes the coverage report's.
    const print = () =>
      console.log(
        [
          '',
          ...timingLines(files, performance.now() / 1000),
          '',
          `${passed} passed, ${failed} failed, ${skipped} skipped`,
        ].join('\n'),
      );
    if (this.printAtExit) process.once('exit', print);
    else print();
  }
}
