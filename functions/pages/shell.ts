import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The calendar page's HTML, which every public page is rendered into. Deployed, the build copies it
 * next to the function's bundle (infra/site.ts); locally it is read from web/src, the file the page's
 * build copies unchanged to web/dist.
 */
const HERE = dirname(fileURLToPath(import.meta.url));
// The bundle's entry sits next to index.html; a chunk of it would sit in chunks/, one level below.
const CANDIDATES = [
  join(HERE, 'index.html'),
  join(HERE, '..', 'index.html'),
  join(HERE, '..', '..', 'web', 'src', 'index.html'),
];

let cached: string | undefined;

export function calendarShell(): string {
  if (cached !== undefined) return cached;
  const file = CANDIDATES.find((f) => existsSync(f));
  if (!file)
    throw new Error(`The calendar page's index.html is missing (looked in ${CANDIDATES.join(', ')}).`);
  // Locally the source may change while the gateway runs (another edit of the page): read it each time.
  const text = readFileSync(file, 'utf8');
  if (file !== CANDIDATES[2]) cached = text;
  return text;
}
