import { execSync } from 'node:child_process';

/** The commit a figure was measured on, marked `-dirty` when the tree has uncommitted changes. */
export function gitCommit(): string {
  try {
    const head = execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim();
    const dirty = execSync('git status --porcelain --untracked-files=no', { encoding: 'utf8' }).trim();
    return dirty ? `${head}-dirty` : head;
  } catch {
    return 'unknown';
  }
}
