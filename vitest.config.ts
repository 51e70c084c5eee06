import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/env.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    pool: 'forks',
    // Generous: CI machines are shared and can be several times slower than a quiet laptop. Timing is
    // the bench's to judge (npm run bench), never a test's.
    testTimeout: 120_000,
    hookTimeout: 600_000,
    // Reported, never enforced: no thresholds, so coverage cannot fail a run.
    coverage: {
      enabled: true,
      provider: 'v8',
      reporter: ['text-summary', 'json-summary'],
      include: ['shared/**', 'functions/**'],
      reportsDirectory: 'coverage',
    },
  },
});
