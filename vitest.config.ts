import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import SlowestFirst from './test/support/sequencer';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/env.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core CI machine, where the
    // worker and DynamoDB Local's JVM mostly take turns and an integration file often waits (on timers,
    // child processes, a browser). A worker per core keeps both busy (on a loaded 2-core machine, four
    // integration files took 334 s with two workers, 456 s with three, 568 s with one); each file still
    // has a database of its own (test/support/env.ts), so files in parallel do not meet.
    maxWorkers: availableParallelism(),
    // The slowest files start first (test/support/slow-files.ts), so none starts last on its own.
    sequence: { sequencer: SlowestFirst },
    // Generous: CI machines are shared and can be several times slower than a quiet laptop. Timing is
    // the bench's to judge (npm run bench), never a test's.
    testTimeout: 120_000,
    hookTimeout: 600_000,
    // On for `npm test` (--coverage), the whole suite; off for a run of a few files, where the
    // thresholds would not hold. The thresholds are the whole suite's level, rounded down: raise them
    // when coverage rises, never lower them.
    coverage: {
      provider: 'v8',
      reporter: ['text-summary', 'json-summary'],
      include: ['shared/**', 'functions/**'],
      reportsDirectory: 'coverage',
      thresholds: { statements: 32, branches: 27, functions: 60, lines: 62 },
    },
  },
});
