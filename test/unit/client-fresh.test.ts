import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED_DIR, generateClient } from '../../client/generate';

/** The typed client is generated from the contract: a contract change must come with a regenerated client. */
describe('the typed client', () => {
  it('is generated from the current contract (npm run client)', async () => {
    const files = await generateClient();

    for (const [name, text] of Object.entries(files))
      expect(readFileSync(join(GENERATED_DIR, name), 'utf8'), `client/src/generated/${name}`).toBe(text);
  });
});
