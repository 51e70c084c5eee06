import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMPILED_DIR, compileModule, validatorModules } from '../../local/compile-validators';
import { operations } from '../../shared/contracts';

/** Functions validate with code generated from the contract's schemas: it must match the schemas. */
describe('validators compiled ahead of time', () => {
  it.each([...validatorModules()])('%s is up to date (npm run validators)', (name, schemas) => {
    const committed = readFileSync(join(COMPILED_DIR, `${name}.ts`), 'utf8');

    expect(committed).toBe(compileModule(schemas));
  });

  it('exist for every operation that declares a parameter or body schema', () => {
    const modules = validatorModules();

    for (const op of operations)
      if (op.pathParams || op.query || op.body)
        expect(modules.has(op.operationId), op.operationId).toBe(true);
  });
});
