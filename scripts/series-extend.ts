import { parseArgs } from 'node:util';

/**
 * `npm run series:extend`: the daily extend job of recurring events, by hand (docs/recurrence.md):
 * finishes interrupted series writes and writes open-ended series up to the horizon.
 *
 *   DYNAMODB_ENDPOINT=http://127.0.0.1:8000 TABLE_NAME=cal-events npm run series:extend
 *   npm run series:extend -- --endpoint http://127.0.0.1:8000 --table cal-events
 */
const { values } = parseArgs({
  options: { endpoint: { type: 'string' }, table: { type: 'string' }, help: { type: 'boolean' } },
});
if (values.help) {
  console.log('Usage: npm run series:extend -- [--endpoint <DynamoDB endpoint>] [--table <table name>]');
  process.exit(0);
}
if (values.endpoint) process.env.DYNAMODB_ENDPOINT = values.endpoint;
if (values.table) process.env.TABLE_NAME = values.table;
process.env.DYNAMODB_ENDPOINT ??= 'http://127.0.0.1:8000';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

// Imported only now: the client reads its settings when its module loads.
const { config } = await import('../shared/config');
const { extendAllSeries } = await import('../shared/services/series');
const where = `table ${config.tableName}${config.dynamoEndpoint ? ` at ${config.dynamoEndpoint}` : ''}`;
console.log(`Extending the recurring series of ${where} to ${config.seriesHorizonMonths} months ahead…`);
try {
  const r = await extendAllSeries(new Date(), (p) =>
    process.stdout.write(`\r${p.series} series, ${p.added} occurrences added`),
  );
  process.stdout.write('\n');
  console.log(
    `Done: ${r.series} series, ${r.finished} interrupted writes finished, ${r.extended} series extended by ${r.added} occurrences${r.failed ? `, ${r.failed} at their 1,000 occurrences` : ''}.`,
  );
} catch (e) {
  const err = e as { name?: string; message?: string };
  process.stdout.write('\n');
  const hint =
    err.name === 'ResourceNotFoundException'
      ? 'the table does not exist: start the local stack (npm start) or check --table / TABLE_NAME'
      : 'check that the database runs (npm start) and --endpoint / DYNAMODB_ENDPOINT point at it';
  console.error(
    `series:extend: cannot read ${where} (${err.name ?? 'Error'}: ${err.message ?? e}); ${hint}.`,
  );
  process.exit(1);
}
