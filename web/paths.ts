import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the page's sources and its build live (web/dist is git-ignored; web/build.ts writes it). */
export const WEB_ROOT = dirname(fileURLToPath(import.meta.url));
export const WEB_SRC = join(WEB_ROOT, 'src');
export const WEB_DIST = join(WEB_ROOT, 'dist');
