import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, isRelative, posix, resolveRelative } from '../../scripts/lib/import-graph';

/**
 * The import graph of the whole project (every folder's TypeScript, tests too), checked for what the
 * layers test (layers.test.ts, inside shared/ and functions/) does not see:
 * - local/ is the local runtime: it imports nothing from the tools (scripts/), the import/export
 *   package (import-export/), the bench or the tests;
 * - import-export/ is a package built on client/: its library (src/) imports nothing from local/, and
 *   none of it from scripts/, bench/ or test/;
 * - scripts/ may import local/, client/ and import-export/, never bench/ or test/;
 * - no cycle among project files: none at all through local/, scripts/, import-export/ and bench/, and
 *   none of imports that remain at run time anywhere (an import of types only is erased, so it cannot
 *   change the order modules load in; shared/ has a few such, between a module and the types of its
 *   callers).
 */

const ROOT = resolve(import.meta.dirname, '../..');
const FOLDERS = [
  'shared',
  'functions',
  'local',
  'scripts',
  'import-export',
  'client',
  'infra',
  'bench',
  'web',
  'test',
];
const IGNORED = /(^|\/)(node_modules|dist|cdk\.out|coverage)\//;

function tsFiles(folder: string): string[] {
  const abs = join(ROOT, folder);
  if (!existsSync(abs)) return [];
  return (readdirSync(abs, { recursive: true }) as string[])
    .map((f) => posix(join(folder, f)))
    .filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts') && !IGNORED.test(f))
    .filter((f) => statSync(join(ROOT, f)).isFile())
    .sort();
}

type Graph = Map<string, string[]>;

/** The project's import graph: every import, or (`runtime`) those left at run time only. */
function projectGraph(runtime = false): Graph {
  const graph: Graph = new Map();
  for (const file of FOLDERS.flatMap(tsFiles)) {
    const targets = importsOf(file, readFileSync(join(ROOT, file), 'utf8'))
      .filter((i) => isRelative(i.specifier) && (!runtime || !i.typeOnly))
      .map((i) => resolveRelative(file, i.specifier))
      .filter((t): t is string => t !== undefined && /\.tsx?$/.test(t));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Each import of a file under `from` into a file under one of `forbidden`, as `file -> target`. */
function forbiddenImports(graph: Graph, from: string, forbidden: string[]): string[] {
  return [...graph]
    .filter(([file]) => file.startsWith(from))
    .flatMap(([file, targets]) =>
      targets.filter((t) => forbidden.some((f) => t.startsWith(f))).map((t) => `${file} -> ${t}`),
    );
}

/** The cycles of a graph (one per strongly connected part found by a depth-first search), as paths. */
function cyclesOf(graph: Graph): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}

const GRAPH = projectGraph();
const RUNTIME = projectGraph(true);
const STRICT = ['local/', 'scripts/', 'import-export/', 'bench/'];

describe('the import graph of the project', () => {
  it('reads the real tree (a sanity check against a vacuous pass)', () => {
    expect(GRAPH.get('local/start.ts')).toContain('local/stack.ts');
    expect(GRAPH.get('scripts/seed.ts')).toContain('import-export/src/index.ts');
    expect(GRAPH.get('import-export/src/api-client.ts')).toContain('client/src/index.ts');
  });

  it('keeps local/ the local runtime: no import of the tools, the import/export package, the bench or tests', () => {
    const found = forbiddenImports(GRAPH, 'local/', ['scripts/', 'import-export/', 'bench/', 'test/']);

    expect(found, found.join('\n')).toEqual([]);
  });

  it('keeps the import/export package on client/: its library off local/, none of it on the tools', () => {
    const library = forbiddenImports(GRAPH, 'import-export/src/', ['local/', 'functions/', 'infra/']);
    const all = forbiddenImports(GRAPH, 'import-export/', ['scripts/', 'bench/', 'test/']);

    expect([...library, ...all], [...library, ...all].join('\n')).toEqual([]);
  });

  it('lets scripts/ import local/, client/ and import-export/ but not the bench or tests', () => {
    const found = forbiddenImports(GRAPH, 'scripts/', ['bench/', 'test/']);

    expect(found, found.join('\n')).toEqual([]);
  });

  it('has no import cycle through local/, scripts/, import-export/ or bench/, types included', () => {
    const cycles = cyclesOf(GRAPH)
      .filter((c) => c.some((f) => STRICT.some((p) => f.startsWith(p))))
      .map((c) => c.join(' -> '));

    expect(cycles, cycles.join('\n')).toEqual([]);
  });

  it('has no cycle of run-time imports among project files', () => {
    const cycles = cyclesOf(RUNTIME).map((c) => c.join(' -> '));

    expect(cycles, cycles.join('\n')).toEqual([]);
  });
});

describe('the checks themselves', () => {
  it('tell an import of types only from one left at run time', () => {
    const text = [
      "import type { A } from './a';",
      "import { type B, type C } from './b';",
      "import { type D, e } from './d';",
      "import f from './f';",
      "export type { G } from './g';",
      "const h = () => import('./h');",
    ].join('\n');

    expect(importsOf('x.ts', text).map((i) => `${i.specifier} ${i.typeOnly}`)).toEqual([
      './a true',
      './b true',
      './d false',
      './f false',
      './g true',
      './h false',
    ]);
  });

  it('find a forbidden import and a cycle', () => {
    const graph: Graph = new Map([
      ['local/a.ts', ['scripts/b.ts']],
      ['scripts/b.ts', ['scripts/c.ts']],
      ['scripts/c.ts', ['scripts/b.ts']],
    ]);

    expect(forbiddenImports(graph, 'local/', ['scripts/'])).toEqual(['local/a.ts -> scripts/b.ts']);
    expect(cyclesOf(graph)).toEqual([['scripts/b.ts', 'scripts/c.ts', 'scripts/b.ts']]);
  });

  it('find nothing in a graph without either', () => {
    const graph: Graph = new Map([
      ['scripts/b.ts', ['local/a.ts', 'client/c.ts']],
      ['local/a.ts', ['client/c.ts']],
    ]);

    expect(forbiddenImports(graph, 'local/', ['scripts/'])).toEqual([]);
    expect(cyclesOf(graph)).toEqual([]);
  });
});
