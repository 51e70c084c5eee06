import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ImportError } from './site-source';

/**
 * What an import has written, kept in a file between runs: for each source record (`events:19`), the
 * target ID it became and a digest of the body last sent. A second run sends nothing for a record whose
 * body is unchanged, updates the others and creates only what has no entry; a run stopped half-way
 * (Ctrl-C, a failure) resumes where the file says.
 */
export interface ImportState {
  version: 1;
  source: string;
  target: string;
  records: Record<string, { id: number; hash: string }>;
}

/** A digest of a body, its keys sorted (the same body always digests the same). */
export function digest(value: unknown): string {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
          )
        : v;
  return createHash('sha256')
    .update(JSON.stringify(sorted(value)))
    .digest('base64url')
    .slice(0, 22);
}

const slugOf = (url: string) =>
  url
    .replace(/^https?:\/\//, '')
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();

/** The state file of one source and one target (under `<dataDir>/import/`: .data/import/ for the CLI). */
export const defaultStateFile = (dataDir: string, source: string, target: string) =>
  join(dataDir, 'import', `${slugOf(source)}--to--${slugOf(target)}.json`);

export function loadState(file: string, source: string, target: string): ImportState {
  if (!existsSync(file)) return { version: 1, source, target, records: {} };
  let state: ImportState;
  try {
    state = JSON.parse(readFileSync(file, 'utf8')) as ImportState;
  } catch {
    throw new ImportError(`The state file ${file} is not readable JSON: move it away to start over.`);
  }
  if (state.source !== source || state.target !== target)
    throw new ImportError(
      `The state file ${file} belongs to ${state.source} -> ${state.target}: give another --state.`,
    );
  return state;
}

/** Written whole to a new file, then renamed over the old one: a crash leaves one or the other. */
export function saveState(file: string, state: ImportState): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, JSON.stringify(state));
  renameSync(`${file}.tmp`, file);
}
