import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type ts from 'typescript';

/** The repository's import graph, read from the source itself (the layers and capabilities tests). */

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** One import: `to` is a repository path, or a bare package name, or unresolved. */
export interface Edge {
  from: string;
  to: string;
  /** The specifier as written. */
  specifier: string;
  /** A relative specifier that names no file. */
  unresolved?: boolean;
  /** `import type`, `import { type X }` only, or `import('x').T` in a type. */
  typeOnly?: boolean;
}

export const isRelative = (specifier: string) =>
  specifier === '.' || specifier === '..' || specifier.startsWith('./') || specifier.startsWith('../');

const importTypeOnly = (
  ts: typeof import('typescript'),
  node: ts.ImportDeclaration | ts.ExportDeclaration,
): boolean => {
  if (ts.isExportDeclaration(node)) return node.isTypeOnly;
  const clause = node.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return (
    !clause.name &&
    named !== undefined &&
    ts.isNamedImports(named) &&
    named.elements.length > 0 &&
    named.elements.every((e) => e.isTypeOnly)
  );
};

type Imports = Array<{ specifier: string; typeOnly: boolean }>;

/**
 * What importsOf found, by the text's hash, kept on disk between processes: each test file that reads
 * the graph (layers, capabilities, project imports, the features doc) runs in a process of its own and
 * would otherwise load the TypeScript compiler and parse every source file again.
 */
const CACHE_FILE = join(ROOT, 'node_modules/.cache/cal-import-graph/imports.json');
let cache: Map<string, Imports> | undefined;
let added = 0;

function cached(): Map<string, Imports> {
  if (cache) return cache;
  try {
    cache = new Map(Object.entries(JSON.parse(readFileSync(CACHE_FILE, 'utf8')) as Record<string, Imports>));
  } catch {
    cache = new Map();
  }
  process.once('exit', saveCache);
  return cache;
}

/** Written whole to a file of its own and renamed into place, so a reader never sees half of it. */
function saveCache(): void {
  if (!added || !cache) return;
  // Old texts' entries pile up as files are edited: past a repository's few thousand, start again.
  if (cache.size > 20_000) cache = new Map([...cache].slice(-5_000));
  try {
    mkdirSync(dirname(CACHE_FILE), { recursive: true });
    const temp = `${CACHE_FILE}.${process.pid}`;
    writeFileSync(temp, JSON.stringify(Object.fromEntries(cache)));
    renameSync(temp, CACHE_FILE);
  } catch {
    // A cache only: the next process parses again.
  }
}

let compiler: typeof ts | undefined;
/** The TypeScript compiler, loaded on the first file the cache does not hold (it takes a second or two). */
const typescript = (): typeof ts => (compiler ??= createRequire(import.meta.url)('typescript') as typeof ts);

/** Every module specifier of a source text with whether it is type-only: imports, re-exports, import(). */
export function importsOf(fileName: string, text: string): Imports {
  const key = createHash('sha1').update(text).digest('base64url');
  const hit = cached().get(key);
  if (hit) return hit;
  const found = parseImports(fileName, text);
  cache!.set(key, found);
  added++;
  return found;
}

function parseImports(fileName: string, text: string): Imports {
  const ts = typescript();
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: Array<{ specifier: string; typeOnly: boolean }> = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    )
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: importTypeOnly(ts, node) });
    else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    )
      found.push({ specifier: node.moduleReference.expression.text, typeOnly: node.isTypeOnly });
    else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    )
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    )
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every module specifier of a source text: static imports and re-exports (type-only ones too), import(). */
export const specifiersOf = (fileName: string, text: string): string[] =>
  importsOf(fileName, text).map((i) => i.specifier);

export const posix = (p: string) => p.split(sep).join('/');

export function tsFilesUnder(folder: string): string[] {
  const abs = join(ROOT, folder);
  if (!existsSync(abs)) return [];
  return (readdirSync(abs, { recursive: true }) as string[])
    .map((f) => posix(join(folder, f)))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && statSync(join(ROOT, f)).isFile())
    .sort();
}

/** The file a relative specifier names, as TypeScript's bundler resolution would find it. */
export function resolveRelative(from: string, specifier: string): string | undefined {
  const base = join(ROOT, dirname(from), specifier);
  const candidates = [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    base.replace(/\.js$/, '.ts'),
    join(base, 'index.ts'),
    join(base, 'index.tsx'),
  ];
  const hit = candidates.find((c) => existsSync(c) && statSync(c).isFile());
  return hit && posix(relative(ROOT, hit));
}

export function edgesOf(files: string[]): Edge[] {
  return files.flatMap((from) =>
    importsOf(from, readFileSync(join(ROOT, from), 'utf8')).map(({ specifier, typeOnly }): Edge => {
      if (!isRelative(specifier)) return { from, to: specifier, specifier, typeOnly };
      const to = resolveRelative(from, specifier);
      return to
        ? { from, to, specifier, typeOnly }
        : { from, to: specifier, specifier, typeOnly, unresolved: true };
    }),
  );
}

/** The cycles of a directed graph, each once, as the list of its nodes (first node repeated at the end). */
export function cyclesOf(edges: Array<[from: string, to: string]>): string[][] {
  const next = new Map<string, string[]>();
  for (const [a, b] of edges) next.set(a, [...(next.get(a) ?? []), b]);
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const found = new Map<string, string[]>();
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const to of [...new Set(next.get(node) ?? [])].sort()) {
      if (state.get(to) === 'open') {
        const cycle = stack.slice(stack.indexOf(to));
        const key = [...cycle].sort().join(' ');
        if (!found.has(key)) found.set(key, [...cycle, to]);
      } else if (!state.has(to)) visit(to);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...next.keys()].sort()) if (!state.has(node)) visit(node);
  return [...found.values()];
}
