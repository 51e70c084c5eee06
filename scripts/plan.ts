/**
 * `npm run plan -- "categories=jazz&venue=4"`: how GET /events would read that query, without reading
 * anything (shared/services/events/list/plan.ts).
 *
 *   npm run plan -- "<query>" [--as visitor|subscriber|contributor|author|editor|administrator]
 *   npm run plan -- --table                   the items, access-pattern and list-plan tables of docs/data-model.md
 *   npm run plan -- --write docs/data-model.md  regenerates them between their markers
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DomainError } from '../shared/domain/errors';
import type { Role } from '../shared/domain/roles';
import { itemsDocBlock, patternsDocBlock, planDocBlock, planOf, replaceBlocks } from './plan-doc';

const USAGE =
  'Usage: npm run plan -- "<query>" [--as visitor|subscriber|contributor|author|editor|administrator]\n' +
  '       npm run plan -- --table | --write docs/data-model.md';

function args() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        as: { type: 'string', default: 'visitor' },
        table: { type: 'boolean' },
        write: { type: 'string' },
      },
    });
  } catch (e) {
    // An option without its value, or one unknown: say which, and how it is used.
    console.error(`plan: ${(e as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}
const { values, positionals } = args();

try {
  if (values.table) console.log(`${itemsDocBlock()}\n\n${patternsDocBlock()}\n\n${planDocBlock()}`);
  else if (values.write) {
    const file = values.write;
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '# Data model and access patterns\n';
    writeFileSync(file, replaceBlocks(text));
    console.log(`Wrote the items, access patterns and list plans of ${file}.`);
  } else if (positionals.length === 1) {
    const role = values.as === 'visitor' ? undefined : (values.as as Role);
    const { plan, lines } = planOf(positionals[0]!.replace(/^\?/, ''), role);
    console.log(`GET /events?${positionals[0]!.replace(/^\?/, '')} as ${values.as}:\n`);
    console.log(lines.join('\n'));
    if (plan.driver === 'tally' && plan.tallies.some((s) => s.of === 'category' || s.of === 'category+venue'))
      console.log('\n(a category counts alone when it is a leaf, as its subtree when it has children)');
  } else {
    console.error(USAGE);
    process.exitCode = 2;
  }
} catch (e) {
  if (!(e instanceof DomainError)) throw e;
  console.error(`400 ${e.code}: ${e.message} ${JSON.stringify(e.data.details ?? {})}`);
  process.exitCode = 1;
}
