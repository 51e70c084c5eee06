import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  COMPILED_DIR,
  compileModule,
  runtimeOperation,
  validatorModules,
} from '../../scripts/compile-validators';
import { operations } from '../../shared/contracts';

const ROOT = resolve(import.meta.dirname, '../..');

/** Functions validate with code generated from the contract's schemas: it must match the schemas. */
describe('validators compiled ahead of time', () => {
  it.each([...validatorModules()])('%s is up to date (npm run validators)', (name, schemas) => {
    const committed = readFileSync(join(COMPILED_DIR, `${name}.ts`), 'utf8');

    expect(committed).toBe(compileModule(schemas));
  });

  it('exist for every operation, with its run-time part', () => {
    const modules = validatorModules();

    for (const op of operations) {
      const module = modules.get(op.operationId);
      expect(module?.operation, op.operationId).toEqual(runtimeOperation(op));
      expect(Object.keys(module!.schemas).sort(), op.operationId).toEqual(
        [op.pathParams && 'params', op.query && 'query', op.body && 'body'].filter(Boolean).sort(),
      );
    }
  });

  it.each(operations.map((op) => [op.handler, op] as const))(
    "%s runs with its own operation's module and loads no contract",
    async (handler, op) => {
      const source = readFileSync(join(ROOT, `${handler}.ts`), 'utf8');
      const imported = [...source.matchAll(/^import (type )?[^;]*from '([^']+)';$/gm)];

      expect(imported.map(([, type, from]) => [from, Boolean(type)])).toContainEqual([
        `../../shared/schemas/compiled/${op.operationId}`,
        false,
      ]);
      // The contract is for types: its schemas and descriptions stay out of the function's start.
      for (const [, type, from] of imported)
        if (/shared\/contracts\/\w+$/.test(from!)) expect(type, from).toBe('type ');
      const { operation } = (await import(`../../shared/schemas/compiled/${op.operationId}.ts`)) as {
        operation: unknown;
      };
      expect(operation).toEqual(runtimeOperation(op));
    },
  );
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
    const schema = validatorModules().get(name)!.schemas[part]!;
    const ahead = answer(checker(compiled[part] as never), data);
    expect(ahead).toBeDefined();
    expect(ahead).toEqual(answer(compileValidator(schema), data));
  });

  it('keeps the properties named description: only the keyword is left out of the generated code', async () => {
    const { compileValidator } = await import('../../shared/schemas/validate');
    const { checker } = await import('../../shared/schemas/validation-errors');
    const tooLong = 'x'.repeat(100_001);
    const cases: Array<[string, string, unknown]> = [
      ['createEvent', 'body', { title: 'T', start_date: 'a', end_date: 'b', description: tooLong }],
      ['inlineRecords', 'venue', { venue: 'V', description: tooLong }],
    ];
    for (const [name, part, data] of cases) {
      const compiled = (await import(`../../shared/schemas/compiled/${name}.ts`)) as Record<string, unknown>;
      const ahead = answer(checker(compiled[part] as never), data);
      expect(ahead, `${name} ${part}`).toMatchObject({ params: { description: expect.any(String) } });
      expect(ahead).toEqual(answer(compileValidator(validatorModules().get(name)!.schemas[part]!), data));
    }
  });
});
