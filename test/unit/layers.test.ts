import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  type Edge,
  edgesOf,
  isRelative,
  ROOT,
  specifiersOf,
  tsFilesUnder,
} from '../../scripts/lib/import-graph';

/**
 * The architecture of shared/, checked on the import graph of the source itself.
 *
 * Layers, bottom to top; a file may import only from its own folder or from a lower layer:
 *   0 shared/config.ts  1 shared/domain/  2 shared/schemas/  3 shared/contracts/  4 shared/db/
 *   5 shared/repositories/ and shared/outbound/ (DynamoDB; URLs users gave)  6 shared/services/ and
 *   shared/docs/ (same rank, neither imports the other)
 *   7 shared/http/  8 functions/
 * The services skip a layer never: they reach shared/db/ through shared/repositories/ only.
 * Anything else (local/, infra/, test/, bench/, a file outside every layer) is out of bounds.
 */

// ---------------------------------------------------------------------------------------------------
// The checker: pure functions over repository-relative paths (POSIX separators).

interface Layer {
  name: string;
  rank: number;
}

const LAYERS: Array<[prefix: string, rank: number]> = [
  ['shared/config.ts', 0],
  ['shared/domain/', 1],
  ['shared/schemas/', 2],
  ['shared/contracts/', 3],
  ['shared/db/', 4],
  ['shared/repositories/', 5],
  ['shared/outbound/', 5],
  ['shared/services/', 6],
  ['shared/docs/', 6],
  ['shared/http/', 7],
  ['functions/', 8],
];

function layerOf(file: string): Layer | undefined {
  const hit = LAYERS.find(([prefix]) => (prefix.endsWith('/') ? file.startsWith(prefix) : file === prefix));
  return hit && { name: hit[0], rank: hit[1] };
}

/** Whether one import breaks the layer rule. Bare package imports are not part of the layering. */
function breaksLayers(edge: Edge): boolean {
  if (!isRelative(edge.specifier)) return false;
  if (edge.unresolved) return true;
  const from = layerOf(edge.from);
  const to = layerOf(edge.to);
  if (!from || !to) return true;
  if (from.name === to.name) return false;
  return to.rank >= from.rank;
}

/** Every import that breaks the layer rule, as `file -> target`. */
function layerViolations(edges: Edge[]): string[] {
  return edges
    .filter(breaksLayers)
    .map((e) => `${e.from} -> ${e.unresolved ? `${e.specifier} (unresolved)` : e.to}`);
}

/** The services reach the table through shared/repositories/ only, never shared/db/ itself. */
const NO_DB = ['shared/services/'];

/** Imports of shared/db/ from the services, as `file -> target`. */
function dbViolations(edges: Edge[]): string[] {
  return edges
    .filter((e) => !e.unresolved && e.to.startsWith('shared/db/') && NO_DB.some((p) => e.from.startsWith(p)))
    .map((e) => `${e.from} -> ${e.to}`);
}

/** Folders whose files must not import the AWS SDK: only shared/db and shared/repositories talk to DynamoDB. */
const NO_AWS_SDK = [
  'shared/services/',
  'shared/schemas/',
  'shared/contracts/',
  'shared/domain/',
  'shared/outbound/',
  'functions/',
];

function awsSdkViolations(edges: Edge[]): string[] {
  return edges
    .filter((e) => NO_AWS_SDK.some((p) => e.from.startsWith(p)) && e.specifier.startsWith('@aws-sdk/'))
    .map((e) => `${e.from} -> ${e.specifier}`);
}

const KEY_PREFIX = /\b(POST|TERM|TERMNAME|TYPE|TALLY|COUNT|COUNTER|SLUG|LINK|TAXONOMY)#/;

/** String and template literals of a source text that spell a table key prefix (comments do not count). */
function keyLiteralsIn(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isStringLiteralLike(node) ||
        ts.isTemplateHead(node) ||
        ts.isTemplateMiddle(node) ||
        ts.isTemplateTail(node)) &&
      KEY_PREFIX.test(node.text)
    ) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      found.push(`${fileName}:${line} ${node.getText(source)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

// ---------------------------------------------------------------------------------------------------
// The real tree.

const SOURCES = [...tsFilesUnder('shared'), ...tsFilesUnder('functions')];
const GRAPH = edgesOf(SOURCES);

describe('the import graph of shared/ and functions/', () => {
  it('reads the real tree (a sanity check against a vacuous pass)', () => {
    expect(SOURCES).toContain('shared/db/keys.ts');
    expect(SOURCES).toContain('functions/events/list-events.ts');
    expect(GRAPH).toContainEqual(
      expect.objectContaining({ from: 'shared/db/keys.ts', to: 'shared/domain/records.ts' }),
    );
  });

  it('has every file of shared/ and functions/ in a layer', () => {
    const outside = SOURCES.filter((f) => layerOf(f) === undefined);

    expect(outside, `files outside every layer:\n${outside.join('\n')}`).toEqual([]);
  });

  it('imports only from the same folder or a lower layer', () => {
    const violations = layerViolations(GRAPH);

    expect(violations, `imports that break the layering:\n${violations.join('\n')}`).toEqual([]);
  });

  it('keeps shared/db/ behind the repositories: no service imports it', () => {
    const violations = dbViolations(GRAPH);

    expect(violations, `imports of shared/db/ above the repositories:\n${violations.join('\n')}`).toEqual([]);
  });

  it('keeps the AWS SDK out of services, schemas, contracts, domain and functions', () => {
    const violations = awsSdkViolations(GRAPH);

    expect(violations, `AWS SDK imports outside db / repositories:\n${violations.join('\n')}`).toEqual([]);
  });
});

describe('table key prefixes', () => {
  it('are spelled only in shared/db/keys.ts', () => {
    const files = ['shared', 'functions', 'local', 'infra', 'bench']
      .flatMap(tsFilesUnder)
      // item-kinds.ts spells the key patterns for docs/data-model.md, not keys: test/unit/item-kinds.test.ts
      // holds each of them to what the builders of keys.ts make.
      .filter((f) => f !== 'shared/db/keys.ts' && f !== 'shared/db/item-kinds.ts');

    const literals = files.flatMap((f) => keyLiteralsIn(f, readFileSync(join(ROOT, f), 'utf8')));

    expect(literals, `key prefixes built outside shared/db/keys.ts:\n${literals.join('\n')}`).toEqual([]);
  });

  it('are found in shared/db/keys.ts itself (the scan sees what it looks for)', () => {
    const literals = keyLiteralsIn(
      'shared/db/keys.ts',
      readFileSync(join(ROOT, 'shared/db/keys.ts'), 'utf8'),
    );

    expect(literals.length).toBeGreaterThan(0);
  });
});

describe('the checker itself', () => {
  const edge = (from: string, to: string, specifier = '../x'): Edge => ({ from, to, specifier });

  it('accepts imports from a lower layer and from the same folder', () => {
    const edges = [
      edge('shared/db/keys.ts', 'shared/domain/records.ts'),
      edge('shared/domain/dates.ts', 'shared/config.ts'),
      edge('shared/services/events/list/list.ts', 'shared/services/common/context.ts', './context'),
      edge('shared/http/handler.ts', 'shared/contracts/types.ts'),
      edge('functions/events/get-event.ts', 'shared/http/handler.ts', '../../shared/http/handler'),
    ];

    expect(layerViolations(edges)).toEqual([]);
  });

  it('reports an import from a higher layer as file -> target', () => {
    const edges = [edge('shared/domain/event-query.ts', 'shared/db/keys.ts')];

    expect(layerViolations(edges)).toEqual(['shared/domain/event-query.ts -> shared/db/keys.ts']);
  });

  it('reports services and docs importing each other, though they share a rank', () => {
    const edges = [
      edge('shared/services/events/list/list.ts', 'shared/docs/openapi.ts'),
      edge('shared/docs/openapi.ts', 'shared/services/common/context.ts'),
    ];

    expect(layerViolations(edges)).toEqual([
      'shared/services/events/list/list.ts -> shared/docs/openapi.ts',
      'shared/docs/openapi.ts -> shared/services/common/context.ts',
    ]);
  });

  it('reports shared/ reaching into functions/, local/, infra/, test/ or bench/', () => {
    const targets = [
      'functions/events/get-event.ts',
      'local/gateway.ts',
      'infra/stack.ts',
      'test/support/stack.ts',
      'bench/run.ts',
    ];

    const violations = layerViolations(targets.map((t) => edge('shared/http/handler.ts', t)));

    expect(violations).toHaveLength(targets.length);
  });

  it('reports a service importing shared/db/ and lets a repository do so', () => {
    const edges = [
      edge('shared/services/series/journal.ts', 'shared/db/keys.ts'),
      edge('shared/repositories/series.ts', 'shared/db/keys.ts'),
    ];

    expect(dbViolations(edges)).toEqual(['shared/services/series/journal.ts -> shared/db/keys.ts']);
  });

  it('reports a relative import that names no file', () => {
    const edges: Edge[] = [
      { from: 'shared/domain/a.ts', to: './gone', specifier: './gone', unresolved: true },
    ];

    expect(layerViolations(edges)).toEqual(['shared/domain/a.ts -> ./gone (unresolved)']);
  });

  it('ignores package imports for the layering but reports the AWS SDK outside db / repositories', () => {
    const edges = [
      edge('shared/domain/dates.ts', 'luxon', 'luxon'),
      edge('shared/services/events/list/list.ts', '@aws-sdk/lib-dynamodb', '@aws-sdk/lib-dynamodb'),
      edge('shared/repositories/posts.ts', '@aws-sdk/lib-dynamodb', '@aws-sdk/lib-dynamodb'),
    ];

    expect(layerViolations(edges)).toEqual([]);
    expect(awsSdkViolations(edges)).toEqual(['shared/services/events/list/list.ts -> @aws-sdk/lib-dynamodb']);
  });

  it('finds static, multi-line, type-only and re-export specifiers in source text', () => {
    const text = [
      "import { a } from './a';",
      'import {',
      '  b,',
      '  c,',
      "} from '../b';",
      "import type { T } from '../types';",
      "export { d } from './d';",
      "export * from './e';",
      "export type { U } from './u';",
      "import './side-effect';",
      "const lazy = () => import('../lazy');",
      '// import { nope } from "./comment";',
    ].join('\n');

    expect(specifiersOf('x.ts', text)).toEqual([
      './a',
      '../b',
      '../types',
      './d',
      './e',
      './u',
      './side-effect',
      '../lazy',
    ]);
  });

  it('finds key prefixes in string and template literals, not in comments', () => {
    const text = [
      '// TERM#<id> is the key of a term',
      "const a = 'COUNT#event';",
      'const b = `POST#${id}`;',
      'const c = `${kind}#${id}`;',
      'const d = `x${y}TALLY#${z}`;',
    ].join('\n');

    expect(keyLiteralsIn('x.ts', text)).toEqual([
      "x.ts:2 'COUNT#event'",
      'x.ts:3 `POST#${',
      'x.ts:5 }TALLY#${',
    ]);
  });
});
