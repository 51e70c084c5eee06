import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { cyclesOf, edgesOf, type Edge, ROOT, tsFilesUnder } from '../../scripts/lib/import-graph';

/**
 * The capabilities of shared/services/ (docs/features.md): each is a folder with one public face, its
 * index.ts. A file outside a capability (another capability, functions/, local/, bench/, test/, ...)
 * imports only that index, never a file inside; capabilities import each other without a cycle, and
 * no two files of shared/ import each other at run time in a circle. A folder with its own index.ts
 * inside a capability (events/list) is a capability of its own.
 */

export const SERVICES = 'shared/services/';

/** The capability folders (with a trailing slash): every folder of shared/services/ holding an index.ts. */
export function capabilitiesIn(files: string[]): string[] {
  return files
    .filter((f) => f.startsWith(SERVICES) && f.endsWith('/index.ts'))
    .map((f) => f.slice(0, -'index.ts'.length))
    .sort();
}

/** The capability a file belongs to: the deepest capability folder holding it. */
export function capabilityOf(file: string, capabilities: string[]): string | undefined {
  return capabilities.filter((c) => file.startsWith(c)).sort((a, b) => b.length - a.length)[0];
}

/** Imports that reach into another capability's internals instead of its index.ts, as `file -> target`. */
export function reachingIn(edges: Edge[], capabilities: string[]): string[] {
  return edges
    .filter((e) => !e.unresolved && e.to.startsWith(SERVICES))
    .filter((e) => {
      const target = capabilityOf(e.to, capabilities);
      return target !== capabilityOf(e.from, capabilities) && e.to !== `${target}index.ts`;
    })
    .map((e) => `${e.from} -> ${e.to}`);
}

/** The import graph between capabilities (an import of any kind counts), as [from, to] pairs. */
export function capabilityEdges(edges: Edge[], capabilities: string[]): Array<[string, string]> {
  const pairs = edges.flatMap((e): Array<[string, string]> => {
    const from = capabilityOf(e.from, capabilities);
    const to = e.unresolved ? undefined : capabilityOf(e.to, capabilities);
    return from && to && from !== to ? [[from, to]] : [];
  });
  return [...new Map(pairs.map((p) => [p.join(' '), p])).values()];
}

const SERVICE_FILES = tsFilesUnder('shared/services');
const CAPABILITIES = capabilitiesIn(SERVICE_FILES);
const IMPORTERS = ['shared', 'functions', 'local', 'bench', 'test', 'infra', 'scripts', 'client'].flatMap(
  tsFilesUnder,
);
const GRAPH = edgesOf(IMPORTERS);

describe('the capabilities of shared/services/', () => {
  it('reads the real tree (a sanity check against a vacuous pass)', () => {
    expect(CAPABILITIES).toEqual(
      expect.arrayContaining(['shared/services/events/', 'shared/services/series/']),
    );
    expect(GRAPH).toContainEqual(
      expect.objectContaining({
        from: 'functions/events/get-event.ts',
        to: 'shared/services/events/index.ts',
      }),
    );
  });

  it('puts every service file in a capability folder', () => {
    const loose = SERVICE_FILES.filter((f) => capabilityOf(f, CAPABILITIES) === undefined);

    expect(
      loose,
      `service files outside every capability (a folder with an index.ts):\n${loose.join('\n')}`,
    ).toEqual([]);
  });

  it('is imported from outside each capability through its index.ts only', () => {
    const violations = reachingIn(GRAPH, CAPABILITIES);

    expect(violations, `imports of another capability's internals:\n${violations.join('\n')}`).toEqual([]);
  });

  it('has no cycle between capabilities', () => {
    const cycles = cyclesOf(capabilityEdges(GRAPH, CAPABILITIES)).map((c) => c.join(' -> '));

    expect(cycles, `capabilities importing each other in a circle:\n${cycles.join('\n')}`).toEqual([]);
  });

  it('has no cycle between the files of shared/ and functions/ at run time (type-only imports aside)', () => {
    const runtime = GRAPH.filter(
      (e) =>
        !e.typeOnly && !e.unresolved && (e.from.startsWith('shared/') || e.from.startsWith('functions/')),
    ).map((e): [string, string] => [e.from, e.to]);
    const cycles = cyclesOf(runtime).map((c) => c.join(' -> '));

    expect(cycles, `files importing each other in a circle:\n${cycles.join('\n')}`).toEqual([]);
  });

  it('keeps each index.ts a list of re-exports (the public face holds no code of its own)', () => {
    const code = CAPABILITIES.map((c) => `${c}index.ts`).filter((f) =>
      ts
        .createSourceFile(f, readFileSync(join(ROOT, f), 'utf8'), ts.ScriptTarget.Latest)
        .statements.some((st) => !ts.isExportDeclaration(st) || !st.moduleSpecifier),
    );

    expect(code, `index.ts files holding more than re-exports:\n${code.join('\n')}`).toEqual([]);
  });
});

describe('the capability checker itself', () => {
  const caps = ['shared/services/events/', 'shared/services/events/list/', 'shared/services/series/'];
  const edge = (from: string, to: string, typeOnly = false): Edge => ({
    from,
    to,
    specifier: '../x',
    typeOnly,
  });

  it('finds the deepest capability of a file', () => {
    expect(capabilityOf('shared/services/events/list/plan.ts', caps)).toBe('shared/services/events/list/');
    expect(capabilityOf('shared/services/events/read.ts', caps)).toBe('shared/services/events/');
    expect(capabilityOf('shared/services/loose.ts', caps)).toBeUndefined();
  });

  it('accepts imports inside a capability and of another capability index', () => {
    const edges = [
      edge('shared/services/events/read.ts', 'shared/services/events/view.ts'),
      edge('shared/services/series/journal.ts', 'shared/services/events/index.ts'),
      edge('functions/events/list-events.ts', 'shared/services/events/list/index.ts'),
    ];

    expect(reachingIn(edges, caps)).toEqual([]);
  });

  it('reports a file reaching into another capability, a nested one or its parent included', () => {
    const edges = [
      edge('shared/services/series/journal.ts', 'shared/services/events/view.ts'),
      edge('shared/services/events/list/list.ts', 'shared/services/events/view.ts'),
      edge('functions/events/get-event.ts', 'shared/services/events/read.ts'),
    ];

    expect(reachingIn(edges, caps)).toEqual([
      'shared/services/series/journal.ts -> shared/services/events/view.ts',
      'shared/services/events/list/list.ts -> shared/services/events/view.ts',
      'functions/events/get-event.ts -> shared/services/events/read.ts',
    ]);
  });

  it('reports a cycle between capabilities, through a type-only import too', () => {
    const edges = [
      edge('shared/services/events/read.ts', 'shared/services/series/index.ts', true),
      edge('shared/services/series/journal.ts', 'shared/services/events/index.ts'),
      edge('shared/services/events/list/list.ts', 'shared/services/events/index.ts'),
    ];

    expect(cyclesOf(capabilityEdges(edges, caps))).toEqual([
      ['shared/services/events/', 'shared/services/series/', 'shared/services/events/'],
    ]);
  });

  it('finds every cycle of a graph once and none in a graph without one', () => {
    expect(
      cyclesOf([
        ['a', 'b'],
        ['b', 'c'],
        ['c', 'a'],
        ['c', 'd'],
        ['d', 'd'],
      ]),
    ).toEqual([
      ['a', 'b', 'c', 'a'],
      ['d', 'd'],
    ]);
    expect(
      cyclesOf([
        ['a', 'b'],
        ['a', 'c'],
        ['b', 'c'],
      ]),
    ).toEqual([]);
  });
});
