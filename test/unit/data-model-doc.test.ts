import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { blockIn, planDocBlock } from '../../local/plan-doc';

/** docs/data-model.md shows what the event-list planner does: its table is the planner's own output. */
describe('docs/data-model.md', () => {
  it('holds the list plans the planner prints (regenerate: npm run plan -- --write docs/data-model.md)', () => {
    const text = readFileSync(new URL('../../docs/data-model.md', import.meta.url), 'utf8');

    expect(blockIn(text)).toBe(planDocBlock());
  });
});
