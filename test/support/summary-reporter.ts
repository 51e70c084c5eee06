import type { Reporter, TestModule, Vitest } from 'vitest/node';

/**
 * Prints the plain `N passed, N failed` closing line that CI reads. It must be the last line of the run,
 * but vitest prints the coverage report after `onTestRunEnd`, so a `vitest run` with coverage on prints
 * the line when the process exits instead.
 */
export default class SummaryReporter implements Reporter {
  private printAtExit = false;

  onInit(vitest: Vitest): void {
    this.printAtExit = vitest.config.coverage.enabled && !vitest.config.watch;
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
    const line = `\n${passed} passed, ${failed} failed, ${skipped} skipped`;
    if (this.printAtExit) process.once('exit', () => console.log(line));
    else console.log(line);
  }
}
