import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { SLOW_FILES } from './slow-files';

/** Integration and browser files before handler and unit ones: they wait on I/O and take longer. */
const KIND_ORDER = ['test/browser/', 'test/integration/', 'test/infra/', 'test/handlers/', 'test/unit/'];

/**
 * Slowest first: the known slow files (test/support/slow-files.ts) in their order, then the others as
 * vitest orders them (by their last run's time when it has one for both), kind by kind. Each worker
 * takes the next file when it is free, so a long file started last would keep the run going alone.
 */
export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const path = (s: TestSpecification) => relative(root, s.moduleId).split('\\').join('/');
    const rank = (s: TestSpecification) => {
      const slow = SLOW_FILES.indexOf(path(s));
      if (slow >= 0) return slow;
      const kind = KIND_ORDER.findIndex((prefix) => path(s).startsWith(prefix));
      return SLOW_FILES.length + (kind < 0 ? KIND_ORDER.length : kind);
    };
    // Array.prototype.sort is stable: within a rank, vitest's own order stays.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
