import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ensureTable, startDynamo } from './dynamo';

/**
 * The local stack, the one way every runner starts it (`npm start`, the tests, the bench, the
 * Lighthouse runner): DynamoDB (DynamoDB Local started here, or an endpoint that runs already), the
 * table from the shared definition, the same handlers behind the local gateway, the calendar page,
 * and the background parts (the webhook engine and the scheduled jobs). Each part is optional.
 *
 * The handlers' modules read their configuration (TABLE_NAME, DYNAMODB_ENDPOINT, ...) when they load,
 * so the gateway and the background are imported only once the environment names this stack's
 * DynamoDB and table: set anything else they read (AUTH_LOCAL_SECRET, SITE_URL, ...) before calling.
 */
export interface LocalStackOptions {
  /** An endpoint that runs already, or DynamoDB Local started here (in memory unless `dataDir`). */
  dynamo?: { endpoint: string } | { port?: number; dataDir?: string; sharedDb?: boolean };
  /** The table, made unless it exists (`stream: false` leaves its stream off: local/dynamo.ts says why). */
  table?: { name: string; stream?: boolean };
  /** The gateway on `port` (0: a free one), serving the API, the built page and the local sign-in. */
  gateway?: { port: number; host?: string };
  /**
   * The calendar page (web/dist), built when a source changed since the last build: `required` fails the
   * start when it cannot be built, `optional` says so and serves the API only.
   */
  web?: 'required' | 'optional';
  /** The webhook engine and the scheduled jobs (local/background.ts), as the deployed stack runs them. */
  background?: boolean;
  log?: (line: string) => void;
  warn?: (line: string) => void;
}

export interface LocalStack {
  endpoint: string;
  server?: Server;
  /** `http://127.0.0.1:<port>` of the gateway. */
  origin?: string;
  /** The API's root on the gateway (`<origin>/cal/events/v1`). */
  base?: string;
  /** Whether the calendar page is built (served by the gateway). */
  web: boolean;
  /** The gateway (requests in flight get a moment), the background, then DynamoDB Local if started here. */
  stop: () => Promise<void>;
}

const SERVER_CLOSE_GRACE_MS = 2_000;

/** Lets requests in flight finish (briefly), then drops every connection. */
export const closeServer = (s: Server) =>
  new Promise<void>((ok) => {
    s.close(() => ok());
    s.closeIdleConnections();
    setTimeout(() => {
      s.closeAllConnections();
      ok();
    }, SERVER_CLOSE_GRACE_MS).unref();
  });

async function buildWeb(mode: 'required' | 'optional', o: LocalStackOptions): Promise<boolean> {
  const log = o.log ?? console.log;
  const warn = o.warn ?? console.error;
  try {
    const m = await import('../web/build');
    if (m.webBuildNeeded()) log('Building the calendar page (web/dist)…');
    await m.ensureWebBuilt();
    return true;
  } catch (e) {
    if (mode === 'required') throw e;
    warn(`The calendar page could not be built (${(e as Error).message}); serving the API only.`);
    return false;
  }
}

export async function startLocalStack(o: LocalStackOptions = {}): Promise<LocalStack> {
  const given = o.dynamo && 'endpoint' in o.dynamo ? o.dynamo.endpoint : undefined;
  const own = o.dynamo && !('endpoint' in o.dynamo) ? o.dynamo : {};
  const [dynamo, web] = await Promise.all([
    given ? undefined : startDynamo(own),
    o.web ? buildWeb(o.web, o) : false,
  ]);
  const endpoint = given ?? dynamo!.endpoint;
  let server: Server | undefined;
  let background: { stop: () => Promise<void> } | undefined;
  const stop = async () => {
    if (server) await closeServer(server);
    await background?.stop();
    await dynamo?.stop();
  };
  try {
    if (o.table) await ensureTable(endpoint, o.table.name, { stream: o.table.stream ?? true });
    if (o.gateway || o.background) {
      process.env.DYNAMODB_ENDPOINT = endpoint;
      if (o.table) process.env.TABLE_NAME = o.table.name;
    }
    let origin: string | undefined;
    if (o.gateway) {
      const { startGateway } = await import('./gateway');
      server = await startGateway(o.gateway.port, o.gateway.host ?? '127.0.0.1');
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    }
    if (o.background)
      background = await (
        await import('./background')
      ).startBackground({ endpoint, tableName: o.table?.name ?? process.env.TABLE_NAME! });
    return { endpoint, server, origin, base: origin && `${origin}/cal/events/v1`, web, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
