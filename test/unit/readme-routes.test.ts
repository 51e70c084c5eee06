import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { operations } from '../../shared/contracts';

/**
 * The README's route table is a newcomer's map from a URL to the file that serves it: one row per
 * operation of the contract, with its methods, path, least role and function file, and no row the
 * contract does not have.
 */

const ROOT = resolve(import.meta.dirname, '../..');

interface Row {
  methods: string;
  path: string;
  role: string;
  file: string;
}

/** The rows of the table under `## Routes`: methods, `path`, operation, role, [`file`](file). */
function routeRows(readme: string): Row[] {
  const start = readme.indexOf('\n## Routes\n');
  if (start < 0) throw new Error('README has no "## Routes" section');
  const end = readme.indexOf('\n## ', start + 1);
  return readme
    .slice(start, end < 0 ? undefined : end)
    .split('\n')
    .filter((line) => line.startsWith('| ') && line.includes('`'))
    .map((line) => {
      const cells = line.split(' | ').map((c) => c.replace(/^\| |\|$/g, '').trim());
      return {
        methods: cells[0]!,
        path: cells[1]!.replace(/`/g, ''),
        role: cells[3]!,
        file: /\[`([^`]+)`\]\(([^)]+)\)/.exec(cells[4] ?? '')?.[2] ?? cells[4]!,
      };
    });
}

describe("the README's route table", () => {
  const rows = routeRows(readFileSync(join(ROOT, 'README.md'), 'utf8'));

  it('lists every operation of the contract, and only those, with its function file', () => {
    const expected = operations.map((op) => ({
      methods: op.methods.join(', '),
      // Another namespace's paths are written in full (`/cal/tickets/v1/tickets`).
      path: op.namespace ? `/${op.namespace}${op.path}` : op.path || '/',
      role: op.access,
      file: `${op.handler}.ts`,
    }));

    expect(rows).toEqual(expected);
  });
});
