import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { featuresDoc } from '../../scripts/features-doc';
import { ROOT } from '../../scripts/lib/import-graph';

describe('docs/features.md', () => {
  it('is what `npm run features -- --write` generates from the tree (run it after moving files)', () => {
    expect(readFileSync(join(ROOT, 'docs/features.md'), 'utf8')).toBe(featuresDoc());
  });

  it('lists every capability with its functions', () => {
    const doc = featuresDoc();

    expect(doc).toContain('## events/list');
    expect(doc).toContain('`functions/events/list-events.ts`');
  });
});
