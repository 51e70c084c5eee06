import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BLOCKS, blockIn } from '../../scripts/plan-doc';

/**
 * docs/data-model.md shows what the code does: its Items table is rendered from the item kinds of
 * shared/db/item-kinds.ts (test/unit/item-kinds.test.ts holds them to keys.ts), its access-pattern table
 * from the declarations of shared/db/access-patterns.ts, its list plans from the event-list planner.
 */
describe('docs/data-model.md', () => {
  const text = readFileSync(new URL('../../docs/data-model.md', import.meta.url), 'utf8');

  it.each(BLOCKS)('holds $start as generated (npm run plan -- --write docs/data-model.md)', (b) => {
    expect(blockIn(text, b.start, b.end)).toBe(b.render());
  });
});
