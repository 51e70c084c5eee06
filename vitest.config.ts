import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, slowest first, as a full run's closing lines name them (its ten slowest
 * files, test/support/summary-reporter.ts), with those that start `npm start` or a browser, or bundle
 * and synthesize the app. Only the order depends on this list: a file missing from it still runs.
 */
export const SLOW_FILES: string[] = JSON.parse(
  readFileSync(new URL('test/support/slow-files.json', import.meta.url), 'utf8'),
);
/** Integration and browser files before handler and unit ones: they wait on I/O and take longer. */
const KIND_ORDER = ['test/browser/', 'test/integration/', 'test/infra/', 'test/handlers/', 'test/unit/'];

/** A file's place in the run (lower starts sooner); `path` is relative to the repository, with `/`. */
export function runRank(path: string): number {
  const slow = SLOW_FILES.indexOf(path);
  if (slow >= 0) return slow;
  const kind = KIND_ORDER.findIndex((prefix) => path.startsWith(prefix));
  return SLOW_FILES.length + (kind < 0 ? KIND_ORDER.length : kind);
}

/**
 * Slowest first, by runRank; files of one rank as vitest orders them (by their last run's time when it
 * has one for both, else larger files first). Each worker takes the next file when it is free, so a
 * long file started last would keep the run going alone. (Here rather than in a module of its own:
 * vite's config loader wants no extensionless import.)
 */
class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const rank = (s: TestSpecification) => runRank(relative(root, s.moduleId).split('\\').join('/'));
    // Array.prototype.sort is stable: within a rank, vitest's own order stays.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

/** Handler tests that write to the embedded DynamoDB, as the integration tests do. */
const HANDLER_FILES_ON_DYNAMO = [
  'test/handlers/idempotent-create-timeout.test.ts',
  'test/handlers/log-before-answer.test.ts',
  'test/handlers/webhook-engine.test.ts',
];

export default defineConfig({
  test: {
    // Two projects so that a run of unit files alone (npm run test:unit) starts no DynamoDB Local: its
    // JVM's start costs more CPU than most unit files. Vitest runs a project's global setup only when
    // the run has files of it.
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/handlers/**/*.test.ts'],
          exclude: HANDLER_FILES_ON_DYNAMO,
        },
      },
      {
        extends: true,
        test: {
          name: 'stack',
          include: [
            'test/integration/**/*.test.ts',
            'test/browser/**/*.test.ts',
            'test/infra/**/*.test.ts',
            ...HANDLER_FILES_ON_DYNAMO,
          ],
          globalSetup: ['test/support/global-setup.ts'],
        },
      },
    ],
    setupFiles: ['test/support/env.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    pool: 'forks',
    // A worker per core. With one (vitest's default leaves a core idle) a 2-core machine ran the files
    // one after another: most of a file's time is waits on DynamoDB Local's JVM, the browser and the
    // local jobs, not this process's CPU. Set here, not on the command line: the projects read it from
    // this config (a CLI --maxWorkers did not reach them).
    maxWorkers: availableParallelism(),
    // The slowest files start first (test/support/slow-files.json), so none starts last on its own.
    sequence: { sequencer: SlowestFirst },
    // Generous: CI machines are shared and can be several times slower than a quiet laptop. Timing is
    // the bench's to judge (npm run bench), never a test's.
    testTimeout: 120_000,
    hookTimeout: 600_000,
    // On for `npm test` (--coverage), the whole suite; off for a run of a few files, where the
    // thresholds would not hold. The validators ajv generates (shared/schemas/compiled, `npm run
    // validators`; compiled-validators.test.ts holds them to the schemas) are left out: each is a few
    // lines of thousands of statements, most for inputs no test sends, and they outweighed the code we
    // write (statements 69.8 % with them, 95.3 % without). The thresholds are the whole suite's level
    // without them, rounded down (a run of 2 December 2026: 95.3 / 89.1 / 97.7 / 96.9 %; branches one
    // lower, as timing-dependent paths vary between runs): raise them when coverage rises, never lower them.
    coverage: {
      provider: 'v8',
      reporter: ['text-summary', 'json-summary'],
      include: ['shared/**', 'functions/**'],
      exclude: ['shared/schemas/compiled/**'],
      reportsDirectory: 'coverage',
      thresholds: { statements: 95, branches: 88, functions: 97, lines: 96 },
    },
  },
});
