import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const DATA_DIR = process.env.CAL_DATA_DIR ?? '.data';

/** The local issuer's signing secret, made once and kept under .data/ so tokens survive restarts. */
export function localSecret(): string {
  const file = join(DATA_DIR, 'local-jwt-secret');
  if (!existsSync(file)) {
    mkdirSync(DATA_DIR, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 });
  }
  return readFileSync(file, 'utf8').trim();
}
