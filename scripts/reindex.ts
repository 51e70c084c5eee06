import { parseArgs } from 'node:util';

/**
 * `npm run reindex`: rebuilds the search index (word items), the featured partition, the events' ticket
 * counts (from the tickets) and the month tallies from the event records of a table, and the terms'
 * name order and totals from the term records.
 *
 *   DYNAMODB_ENDPOINT=http://127.0.0.1:8000 TABLE_NAME=cal-events npm run reindex
 *   npm run reindex -- --endpoint http://127.0.0.1:8000 --table cal-events
 *
 * Without an endpoint it uses the AWS account and region of the environment (a deployed table).
 */
const { values } = parseArgs({
  options: { endpoint: { type: 'string' }, table: { type: 'string' }, help: { type: 'boolean' } },
});
if (values.help) {
  console.log('Usage: npm run reindex -- [--endpoint <DynamoDB endpoint>] [--table <table name>]');
  process.exit(0);
}
if (values.endpoint) process.env.DYNAMODB_ENDPOINT = values.endpoint;
if (values.table) process.env.TABLE_NAME = values.table;
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

// Imported only now: the client reads its settings when its module loads.
const { config } = await import('../shared/config');
const { rebuildFeaturedIndex } = await import('../shared/services/maintenance');
const { rebuildSearchIndex } = await import('../shared/services/maintenance');
const { rebuildTallies } = await import('../shared/services/maintenance');
const { rebuildTermIndex } = await import('../shared/services/maintenance');
const { rebuildTicketedEvents } = await import('../shared/services/maintenance');
const where = `table ${config.tableName}${config.dynamoEndpoint ? ` at ${config.dynamoEndpoint}` : ''}`;
console.log(`Rebuilding the search index of ${where}…`);
try {
  const r = await rebuildSearchIndex((p) =>
    process.stdout.write(`\r${p.events} events, ${p.added} words added, ${p.removed} removed`),
  );
  process.stdout.write('\n');
  console.log(`Done: ${r.events} events, ${r.added} words added, ${r.removed} stale words removed.`);
  console.log('Rebuilding the featured partition (the records the featured listing reads)…');
  const f = await rebuildFeaturedIndex((p) => process.stdout.write(`\r${p.events} events read`));
  process.stdout.write('\n');
  console.log(`Done: ${f.events} events, ${f.added} featured events added, ${f.removed} removed.`);
  console.log("Setting the events' ticket counts from their tickets (the ticketed rows ticketed= reads)…");
  const k = await rebuildTicketedEvents((p) => process.stdout.write(`\r${p.events} events read`));
  process.stdout.write('\n');
  console.log(`Done: ${k.events} events, ${k.ticketed} with tickets, ${k.set} counts set.`);
  console.log(
    'Rebuilding the month tallies of every scope (all events, featured, ticketed, terms, venues, organizers, subtrees)…',
  );
  const tally = await rebuildTallies((p) => process.stdout.write(`\r${p.events} events read`));
  process.stdout.write('\n');
  console.log(
    `Done: ${tally.scopes} scopes, ${tally.items} tally items written, ${tally.removed} stray items removed, ${tally.cleared} stale flags dropped.`,
  );
  console.log('Rebuilding the name order of categories and tags…');
  const t = await rebuildTermIndex();
  console.log(`Done: ${t.terms} terms, ${t.updated} given their name-order keys.`);
} catch (e) {
  const err = e as { name?: string; message?: string };
  process.stdout.write('\n');
  const hint =
    err.name === 'ResourceNotFoundException'
      ? 'the table does not exist: check --table / TABLE_NAME'
      : 'check that the database runs and --endpoint / DYNAMODB_ENDPOINT (or the AWS credentials) point at it';
  console.error(`reindex: cannot read ${where} (${err.name ?? 'Error'}: ${err.message ?? e}); ${hint}.`);
  process.exit(1);
}
