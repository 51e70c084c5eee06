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

describe('validators compiled without ajv messages', () => {
  /** A validator's 400 for `data` (params and their texts), or undefined when it passes. */
  const answer = (validate: (data: unknown) => void, data: unknown) => {
    try {
      validate(data);
      return undefined;
    } catch (e) {
      return (e as { code: string; data: unknown }).data;
    }
  };

  // Every keyword the contract's schemas use: type, bounds, lengths, items, enum, required, anyOf
  // (an event's venue), additionalProperties (path parameters).
  const BAD: Array<[string, 'body' | 'params' | 'query', unknown]> = [
    ['createEvent', 'body', {}],
    ['createEvent', 'body', { title: 5, start_date: true, end_date: '' }],
    ['createEvent', 'body', { title: 'x'.repeat(1001), start_date: 'a', end_date: 'b', status: 'nope' }],
    ['createEvent', 'body', { title: 'T', start_date: 'a', end_date: 'b', venue: true, categories: [0] }],
    ['createEvent', 'body', { title: 'T', start_date: 'a', end_date: 'b', tags: Array(200).fill(1) }],
    ['getEvent', 'params', { id: -1, extra: 'x' }],
    ['listEvents', 'query', { per_page: 0, page: 'two', status: ['nope'] }],
  ];

  it.each(BAD)('%s answers %s %j as the validator compiled with messages does', async (name, part, data) => {
    const { compileValidator } = await import('../../shared/schemas/validate');
    const compiled = (await import(`../../shared/schemas/compiled/${name}.ts`)) as Record<string, unknown>;
    const { checker } = await import('../../shared/schemas/validation-errors');
    const schema = validatorModules().get(name)![part]!;
    const ahead = answer(checker(compiled[part] as never), data);
    expect(ahead).toBeDefined();
    expect(ahead).toEqual(answer(compileValidator(schema), data));
  });
});
