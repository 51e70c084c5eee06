import { join } from 'node:path';
import { DATA_DIR, localSecret } from './secret';
import { ensureTable, startDynamo } from './dynamo';

/**
 * `npm start`: the embedded DynamoDB, the table from the shared definition, and the same handlers
 * behind a local gateway. `CAL_IN_MEMORY=1` (or `--in-memory`) keeps no data on disk.
 */
// Lambda runs Node 22; locally the SDK's notice about older Node versions is only noise.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const port = Number(process.env.PORT ?? 3000);
const inMemory = process.env.CAL_IN_MEMORY === '1' || process.argv.includes('--in-memory');
const tableName = process.env.TABLE_NAME ?? 'cal-events';

const dynamo = await startDynamo({ dataDir: inMemory ? undefined : join(DATA_DIR, 'dynamodb') });
let stopping = false;
const stop = async (code = 0) => {
  if (stopping) return;
  stopping = true;
  await dynamo.stop();
  process.exit(code);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());

try {
  await ensureTable(dynamo.endpoint, tableName);
  Object.assign(process.env, {
    TABLE_NAME: tableName,
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    AUTH_LOCAL_SECRET: localSecret(),
    SITE_URL: process.env.SITE_URL ?? `http://localhost:${port}`,
  });
  // Imported only now: handler modules read their configuration when they load.
  const { startGateway } = await import('./gateway');
  const server = await startGateway(port, process.env.HOST ?? '127.0.0.1');
  process.on('exit', () => server.close());
  console.log(
    `Event calendar API ready at http://localhost:${port}/cal/events/v1 (${inMemory ? 'in memory' : `data in ${DATA_DIR}/`})`,
  );
  console.log('Get a token with: npm run token -- --role editor');
} catch (e) {
  console.error(`Could not start: ${(e as Error).message}`);
  await stop(1);
}
